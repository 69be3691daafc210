import { isWildcard } from '@portico/shared/certificates/dns-challenge';
import type { TDnsProviderOffers } from '@portico/shared/certificates/dns-providers';
import type { TWildcardCertificate } from '@portico/shared/certificates/wildcard-use';
import { DnsChallengeFields } from '@/components/dns-challenge-fields';
import type { TDnsProblems } from '@/lib/dns-challenge';
import { useCertificateTexts } from '@/lib/use-group-texts';
import { cn } from '@/lib/utils';
import type { TCertificateChoice, TCertificateMethod } from '../state/certificate-choice';

const METHODS = ['http-01', 'dns-01'] as const;

/** The words of a method: its name and hint (the wildcard's names the certificate it reuses). */
function methodTexts(
  t: ReturnType<typeof useCertificateTexts>['t'],
  method: TCertificateMethod,
  wildcard: TWildcardCertificate | null,
): { name: string; hint: string } {
  if (method === 'wildcard') {
    const params = { wildcard: wildcard?.domain ?? '' };
    return {
      name: t('certificate.wildcard.wizard.method', params),
      hint: t('certificate.wildcard.wizard.methodHint', params),
    };
  }
  return {
    name: t(`certificate.dns.wizard.method.${method}`),
    hint: t(`certificate.dns.wizard.methodHint.${method}`),
  };
}

/** Under the domain field of step one: a wildcard is served, by DNS-01 only. */
export function WildcardNote() {
  const { t } = useCertificateTexts();
  return <span data-testid="wizard-wildcard-note">{t('certificate.dns.wizard.wildcardNote')}</span>;
}

/**
 * How the certificate is obtained (issue 41): HTTP-01 (the default), DNS-01 with a provider's
 * fields, or, when the server says one covers the domain (`wildcard`), the wildcard certificate
 * another proxy already holds on the same server. A wildcard offers DNS-01 only and says why.
 * Radios, so arrows move between them.
 */
export function CertificateMethodCard({
  domain,
  choice,
  onChange,
  problems,
  offers,
  offered = null,
}: {
  domain: string;
  choice: TCertificateChoice;
  onChange: (choice: TCertificateChoice) => void;
  problems: TDnsProblems;
  /** What the chosen saved server's last check says of each provider; null without one. */
  offers: TDnsProviderOffers | null;
  /** The wildcard certificate of the same server that covers the domain, when there is one. */
  offered?: TWildcardCertificate | null;
}) {
  const { t } = useCertificateTexts();
  const wildcard = isWildcard(domain);
  const methods: TCertificateMethod[] =
    offered && !wildcard ? [...METHODS, 'wildcard'] : [...METHODS];
  return (
    <fieldset
      className="grid min-w-0 gap-3 rounded-lg border border-border p-4"
      data-testid="wizard-certificate-method"
      data-method={choice.method}
    >
      <legend className="px-1 text-sm font-medium">{t('certificate.dns.wizard.title')}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {methods.map((method) => {
          const disabled = wildcard && method === 'http-01';
          const words = methodTexts(t, method, offered);
          return (
            <label
              key={method}
              className={cn(
                'flex min-w-0 items-start gap-3 rounded-md border border-input p-3 text-sm has-[:checked]:border-primary has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring/30',
                disabled && 'cursor-not-allowed opacity-60',
              )}
            >
              <input
                type="radio"
                name="certificate-method"
                value={method}
                checked={choice.method === method}
                disabled={disabled}
                onChange={() =>
                  onChange({
                    ...choice,
                    method,
                    holderId: method === 'wildcard' ? offered?.holderId : undefined,
                  })
                }
                className="mt-1 accent-primary"
                data-testid={`wizard-method-${method}`}
              />
              <span className="grid min-w-0 gap-1">
                <span className="font-medium [overflow-wrap:anywhere]">{words.name}</span>
                <span className="text-xs text-muted-foreground [overflow-wrap:anywhere]">
                  {words.hint}
                </span>
              </span>
            </label>
          );
        })}
      </div>
      {wildcard ? (
        <p
          className="text-xs text-muted-foreground [overflow-wrap:anywhere]"
          data-testid="wizard-wildcard-why"
        >
          {t('certificate.dns.wizard.wildcardWhy', { domain })}
        </p>
      ) : null}
      {choice.method === 'dns-01' ? (
        <DnsChallengeFields
          idPrefix="wizard-dns"
          draft={choice.dns}
          onChange={(dns) => onChange({ ...choice, dns })}
          problems={problems}
          wildcard={wildcard ? { domain } : null}
          offers={offers}
        />
      ) : null}
    </fieldset>
  );
}
