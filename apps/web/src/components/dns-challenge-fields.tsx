import { DNS_PROVIDER_NAMES, TSIG_ALGORITHMS } from '@portico/shared/certificates/dns-challenge';
import type * as React from 'react';
import { Choice } from '@/components/ui/choice';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { PasswordInput } from '@/components/ui/password-input';
import {
  DNS_FIELDS,
  SECRET_FIELDS,
  type TDnsDraft,
  type TDnsField,
  type TDnsProblems,
} from '@/lib/dns-challenge';
import { useLogText } from '@/lib/log-text';
import { useCertificateTexts } from '@/lib/use-group-texts';

function FieldControl({
  field,
  value,
  onChange,
  aria,
}: {
  field: TDnsField;
  value: string;
  onChange: (value: string) => void;
  aria: React.ComponentProps<'input'>;
}) {
  if (field === 'algorithm') {
    return (
      <NativeSelect
        {...(aria as React.ComponentProps<'select'>)}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid="dns-field-algorithm"
      >
        {TSIG_ALGORITHMS.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </NativeSelect>
    );
  }
  const common = {
    ...aria,
    value,
    autoComplete: 'off',
    spellCheck: false,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => onChange(e.target.value),
    'data-testid': `dns-field-${field}`,
  };
  if (SECRET_FIELDS.has(field)) return <PasswordInput {...common} autoComplete="new-password" />;
  return <Input {...common} inputMode={field === 'port' ? 'numeric' : undefined} />;
}

/**
 * The DNS-01 provider and its fields, from the registry (shared/certificates/dns-challenge):
 * the secrets are typed like passwords and start empty (they are never read back). A problem is
 * a key of the server's catalog, so it follows a language switch.
 */
export function DnsChallengeFields({
  idPrefix,
  draft,
  onChange,
  problems,
  wildcard,
}: {
  idPrefix: string;
  draft: TDnsDraft;
  onChange: (draft: TDnsDraft) => void;
  problems: TDnsProblems;
  /** A wildcard domain: offers to cover the bare domain too. */
  wildcard: { domain: string } | null;
}) {
  const { t } = useCertificateTexts();
  const words = useLogText();
  const set = (field: TDnsField) => (value: string) => onChange({ ...draft, [field]: value });
  return (
    <div className="grid gap-4" data-testid="dns-challenge-fields">
      <Field id={`${idPrefix}-provider`} label={t('certificate.dns.provider')}>
        {(aria) => (
          <NativeSelect
            {...aria}
            value={draft.provider}
            onChange={(e) =>
              onChange({ ...draft, provider: e.target.value as TDnsDraft['provider'] })
            }
            data-testid="dns-provider"
          >
            {DNS_PROVIDER_NAMES.map((name) => (
              <option key={name} value={name}>
                {t(`certificate.dns.providerName.${name}`)}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        {DNS_FIELDS[draft.provider].map((field) => {
          const problem = problems[field];
          return (
            <Field
              key={field}
              id={`${idPrefix}-${field}`}
              label={t(`certificate.dns.field.${field}`)}
              hint={t(`certificate.dns.hint.${field}`)}
              error={problem ? words.text({ key: problem }) : undefined}
              className={field === 'secret' || field === 'apiToken' ? 'sm:col-span-2' : undefined}
            >
              {(aria) => (
                <FieldControl
                  field={field}
                  value={draft[field]}
                  onChange={set(field)}
                  aria={aria}
                />
              )}
            </Field>
          );
        })}
      </div>
      {wildcard ? (
        <Choice
          id={`${idPrefix}-apex`}
          checked={draft.includeApex}
          onChange={(includeApex) => onChange({ ...draft, includeApex })}
          disabled={false}
          label={t('certificate.dns.includeApex', {
            apex: wildcard.domain.slice(2),
          })}
          hint={t('certificate.dns.includeApexHint', { domain: wildcard.domain })}
        />
      ) : null}
    </div>
  );
}
