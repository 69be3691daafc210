import { parse } from 'tldts';
import { z } from 'zod';
import { isDomain } from '../validation/rules';
import { DNS_PROVIDER_NAMES, type TDnsProviderName, ZDnsCredentials } from './dns-providers';

/**
 * DNS-01 (issue 41): certbot proves control of a name by a TXT record its DNS plugin writes
 * through the provider's API, so a certificate can cover `*.example.com`. The providers and
 * their credentials: dns-providers.ts.
 */
export {
  DNS_CREDENTIALS_MARK,
  DNS_PROVIDER_NAMES,
  DNS_PROVIDERS,
  dnsCredentialsIni,
  OVH_ENDPOINTS,
  type TDnsCredentials,
  type TDnsProviderName,
  TSIG_ALGORITHMS,
  ZDnsCredentials,
} from './dns-providers';

/**
 * A public suffix by the Public Suffix List (tldts), its private part too (`github.io`,
 * `herokuapp.com`): names under it belong to different people, so a wildcard right under one
 * would cover everyone's. CAs refuse such a request anyway; this says so before a deployment.
 */
function isPublicSuffix(name: string): boolean {
  const { publicSuffix } = parse(name, { allowPrivateDomains: true });
  return publicSuffix !== null && publicSuffix === name.toLowerCase();
}

export const WILDCARD_PREFIX = '*.';

export function isWildcard(domain: string): boolean {
  return domain.startsWith(WILDCARD_PREFIX);
}

/**
 * Why a name cannot be a certificate's wildcard (a key under `validation.dns01`), or undefined:
 * `*` only as the whole first label, over a name of at least two labels that is not a public
 * suffix (`*.com`, `*.co.uk` are refused).
 */
export function wildcardProblem(domain: string): string | undefined {
  if (!isWildcard(domain)) return 'wildcardForm';
  const base = domain.slice(WILDCARD_PREFIX.length);
  if (base.includes('*')) return 'wildcardForm';
  // A single label (`*.com`) is a top-level domain: everyone's names.
  if (isDomain(`${base}.x`) && !base.includes('.')) return 'wildcardSuffix';
  if (!isDomain(base)) return 'wildcardForm';
  if (isPublicSuffix(base)) return 'wildcardSuffix';
  return undefined;
}

/**
 * A wildcard has no name of its own: what a check asks for in its place (SNI, Host, a DNS
 * lookup) is this sample subdomain, which the site serves like any other.
 */
export const WILDCARD_SAMPLE_LABEL = 'portico-check';

export function sampleName(domain: string): string {
  return isWildcard(domain)
    ? `${WILDCARD_SAMPLE_LABEL}.${domain.slice(WILDCARD_PREFIX.length)}`
    : domain;
}

export function isWildcardDomain(domain: string): boolean {
  return wildcardProblem(domain) === undefined;
}

/**
 * A proxy's domain: a plain domain, or a wildcard (served only with DNS-01). Checked before
 * lower-casing, like ZDomain.
 */
export function siteDomainIssue(value: string): string | undefined {
  if (isDomain(value)) return undefined;
  if (!value.includes('*')) return 'validation.domain.invalid';
  const problem = wildcardProblem(value);
  return problem ? `validation.dns01.${problem}` : undefined;
}

/** How a proxy gets its certificate when it is not HTTP-01: the DNS challenge's settings. */
export const ZDnsChallengeInput = z.object({
  credentials: ZDnsCredentials,
  /** With a wildcard domain: the certificate and the site also cover the name itself. */
  includeApex: z.boolean().default(false),
});
export type TDnsChallengeInput = z.input<typeof ZDnsChallengeInput>;

/** What the API says of a proxy's DNS challenge: never the credentials. */
export const ZDnsChallengeView = z.object({
  provider: z.enum(DNS_PROVIDER_NAMES as [TDnsProviderName, ...TDnsProviderName[]]),
  includeApex: z.boolean(),
  /** The server address the credentials were entered for: they are presented to it alone. */
  serverIp: z.string(),
  updatedAt: z.string(),
});
export type TDnsChallengeView = z.infer<typeof ZDnsChallengeView>;
