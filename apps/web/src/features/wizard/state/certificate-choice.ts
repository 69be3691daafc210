import { isWildcard, sampleName } from '@portico/shared/certificates/dns-challenge';
import { emptyDnsDraft, type TDnsDraft } from '@/lib/dns-challenge';

/**
 * How the proxy's certificate is obtained (issue 41): HTTP-01 over port 80 by default, DNS-01
 * through a provider's API (the only way for a wildcard), or the wildcard certificate another
 * proxy already holds on the same server (`holderId`, sent with PUT …/certificate/wildcard).
 * Kept in memory only, like the SSH password: the credentials go to the server once, with
 * PUT …/certificate/dns.
 */
export type TCertificateMethod = 'http-01' | 'dns-01' | 'wildcard';
export type TCertificateChoice = {
  method: TCertificateMethod;
  dns: TDnsDraft;
  holderId?: string;
};

export const defaultCertificateChoice: TCertificateChoice = {
  method: 'http-01',
  dns: emptyDnsDraft,
};

/**
 * A wildcard takes DNS-01 (and keeps what was typed); another name keeps the choice, but not
 * another wildcard's certificate, which may not cover it.
 */
export function choiceForDomain(choice: TCertificateChoice, domain: string): TCertificateChoice {
  if (isWildcard(domain)) return { ...choice, method: 'dns-01', holderId: undefined };
  const method = choice.method === 'wildcard' ? 'http-01' : choice.method;
  return { method, dns: { ...choice.dns, includeApex: false } };
}

/**
 * The name the DNS check asks for, as the server's checks do: a wildcard's apex when it is
 * served too, else its sample subdomain (`portico-check.<domain>`); any other name as it is.
 */
export function checkedName(domain: string, choice: TCertificateChoice): string {
  if (!isWildcard(domain)) return domain;
  return choice.dns.includeApex ? domain.slice(2) : sampleName(domain);
}
