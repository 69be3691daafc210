import {
  DNS_PROVIDER_NAMES,
  DNS_PROVIDERS,
  OVH_ENDPOINTS,
  type TDnsProviderName,
  TSIG_ALGORITHMS,
} from '@portico/shared/certificates/dns-challenge';
import type {
  TDnsProviderOffer,
  TDnsProviderOffers,
} from '@portico/shared/certificates/dns-providers';
import type * as React from 'react';
import { Choice } from '@/components/ui/choice';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { PasswordInput } from '@/components/ui/password-input';
import {
  DNS_FIELDS,
  offerIn,
  SECRET_FIELDS,
  type TDnsDraft,
  type TDnsField,
  type TDnsProblems,
  WIDE_FIELDS,
} from '@/lib/dns-challenge';
import { cn } from '@/lib/utils';

/** The fields chosen from a list: their options. */
const CHOICES: Partial<Record<TDnsField, readonly string[]>> = {
  algorithm: TSIG_ALGORITHMS,
  endpoint: OVH_ENDPOINTS,
};

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
  const choices = CHOICES[field];
  if (choices) {
    return (
      <NativeSelect
        {...(aria as React.ComponentProps<'select'>)}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={`dns-field-${field}`}
      >
        {choices.map((name) => (
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
 * What the server's last check says of the chosen provider's plugin: installed, offered (the
 * deployment installs it), not offered (refused: an alert), or unknown.
 */
function OfferNote({ provider, offer }: { provider: TDnsProviderName; offer: TDnsProviderOffer }) {
  const { t } = useCertificateTexts();
  const params = { package: DNS_PROVIDERS[provider].debianPackage };
  const refused = offer === 'not_offered';
  return (
    <p
      role={refused ? 'alert' : undefined}
      className={cn(
        'text-xs [overflow-wrap:anywhere]',
        refused ? 'text-destructive' : 'text-muted-foreground',
      )}
      data-testid="dns-provider-offer"
      data-offer={offer}
    >
      {t(`certificate.dns.offer.${offer}`, params)}
    </p>
  );
}

/**
 * The DNS-01 provider and its fields, from the registry (shared/certificates/dns-providers):
 * the secrets are typed like passwords and start empty (they are never read back). A problem is
 * a key of the server's catalog, so it follows a language switch. With the server's offers,
 * a provider it does not offer is listed as unavailable, and chosen, says why.
 */
export function DnsChallengeFields({
  idPrefix,
  draft,
  onChange,
  problems,
  wildcard,
  offers,
}: {
  idPrefix: string;
  draft: TDnsDraft;
  onChange: (draft: TDnsDraft) => void;
  problems: TDnsProblems;
  /** A wildcard domain: offers to cover the bare domain too. */
  wildcard: { domain: string } | null;
  /** What the server's last check says of each provider; null when it has no check. */
  offers: TDnsProviderOffers | null;
}) {
  const { t } = useCertificateTexts();
  const words = useLogText();
  const set = (field: TDnsField) => (value: string) => onChange({ ...draft, [field]: value });
  const offerOf = (provider: TDnsProviderName) => offerIn(offers, provider);
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
            {DNS_PROVIDER_NAMES.map((name) => {
              const unavailable = offerOf(name) === 'not_offered';
              const label = t(`certificate.dns.providerName.${name}`);
              return (
                <option key={name} value={name} disabled={unavailable && name !== draft.provider}>
                  {unavailable ? t('certificate.dns.unavailable', { provider: label }) : label}
                </option>
              );
            })}
          </NativeSelect>
        )}
      </Field>
      <OfferNote provider={draft.provider} offer={offerOf(draft.provider)} />
      <div className="grid gap-4 sm:grid-cols-2">
        {DNS_FIELDS[draft.provider].map((field) => {
          const problem = problems[field];
          return (
            <Field
              key={field}
              id={`${idPrefix}-${field}`}
              label={t(`certificate.dns.field.${field}`)}
              hint={t(
                field === 'apiToken'
                  ? `certificate.dns.tokenHint.${draft.provider}`
                  : `certificate.dns.hint.${field}`,
              )}
              error={problem ? words.text({ key: problem }) : undefined}
              className={WIDE_FIELDS.has(field) ? 'sm:col-span-2' : undefined}
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
