import { z } from 'zod';
import { isDomain, isIpv4 } from '../validation/rules';

/**
 * DNS-01 (issue 41): certbot proves control of a name by a TXT record its DNS plugin writes
 * through the provider's API, so a certificate can cover `*.example.com`. The providers are a
 * registry: the Debian package holding certbot's plugin, the plugin's name (`--dns-<name>`,
 * `--dns-<name>-credentials`) and the credentials file's lines. Adding a provider is one entry
 * here plus its schema below.
 */

/** TSIG algorithms certbot's rfc2136 plugin knows, without the broken MD5 and SHA-1. */
export const TSIG_ALGORITHMS = [
  'HMAC-SHA224',
  'HMAC-SHA256',
  'HMAC-SHA384',
  'HMAC-SHA512',
] as const;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const IPV6 = /^[0-9a-fA-F:]{2,39}$/;
const KEY_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,62})(?:\.[A-Za-z0-9_-]{1,63})*\.?$/;
const CLOUDFLARE_TOKEN = /^[A-Za-z0-9_-]{20,200}$/;

function isIpv6(value: string): boolean {
  return IPV6.test(value) && value.includes(':') && (value.match(/::/g) ?? []).length <= 1;
}

export const ZRfc2136Credentials = z.object({
  provider: z.literal('rfc2136'),
  // certbot's plugin takes an address only ("A hostname is not allowed").
  server: z.string().refine((v) => isIpv4(v) || isIpv6(v), 'validation.dns01.serverAddress'),
  port: z.number().int('validation.port').min(1, 'validation.port').max(65535, 'validation.port'),
  keyName: z.string().max(253, 'validation.tooLong').regex(KEY_NAME, 'validation.dns01.keyName'),
  algorithm: z.enum(TSIG_ALGORITHMS, { message: 'validation.dns01.algorithm' }),
  secret: z
    .string()
    .min(16, 'validation.dns01.secretBase64')
    .max(512, 'validation.tooLong')
    .regex(BASE64, 'validation.dns01.secretBase64'),
});

export const ZCloudflareCredentials = z.object({
  provider: z.literal('cloudflare'),
  apiToken: z.string().regex(CLOUDFLARE_TOKEN, 'validation.dns01.apiToken'),
});

export const ZDnsCredentials = z.discriminatedUnion('provider', [
  ZRfc2136Credentials,
  ZCloudflareCredentials,
]);
export type TDnsCredentials = z.infer<typeof ZDnsCredentials>;
export type TDnsProviderName = TDnsCredentials['provider'];

type TProvider<P extends TDnsProviderName> = {
  /** Debian's package with certbot's plugin (installed like nginx and certbot). */
  debianPackage: string;
  /** certbot's plugin: `--<plugin>`, `--<plugin>-credentials`, `--<plugin>-propagation-seconds`. */
  plugin: string;
  /** The credentials file's `key = value` lines (values already validated). */
  ini(c: Extract<TDnsCredentials, { provider: P }>): string[];
};

export const DNS_PROVIDERS: { [P in TDnsProviderName]: TProvider<P> } = {
  rfc2136: {
    debianPackage: 'python3-certbot-dns-rfc2136',
    plugin: 'dns-rfc2136',
    ini: (c) => [
      `dns_rfc2136_server = ${c.server}`,
      `dns_rfc2136_port = ${c.port}`,
      `dns_rfc2136_name = ${c.keyName}`,
      `dns_rfc2136_secret = ${c.secret}`,
      `dns_rfc2136_algorithm = ${c.algorithm}`,
    ],
  },
  cloudflare: {
    debianPackage: 'python3-certbot-dns-cloudflare',
    plugin: 'dns-cloudflare',
    ini: (c) => [`dns_cloudflare_api_token = ${c.apiToken}`],
  },
};

export const DNS_PROVIDER_NAMES = Object.keys(DNS_PROVIDERS) as TDnsProviderName[];

/**
 * The credentials file certbot reads. Validated again here: a value that would break a line
 * (or add one) never reaches the file.
 */
export function dnsCredentialsIni(credentials: TDnsCredentials): string {
  const c = ZDnsCredentials.parse(credentials);
  const lines = (DNS_PROVIDERS[c.provider].ini as (v: TDnsCredentials) => string[])(c);
  return `# Managed by Portico: certbot's ${c.provider} DNS credentials.\n${lines.join('\n')}\n`;
}

/**
 * Second-level names registries sell under (the public suffixes people meet most): a wildcard
 * right under one of them would cover everyone's names. CAs refuse such a request anyway; this
 * says so before a deployment.
 */
const SHARED_SUFFIXES = new Set([
  'co.uk',
  'org.uk',
  'me.uk',
  'ac.uk',
  'gov.uk',
  'com.au',
  'net.au',
  'org.au',
  'co.nz',
  'co.jp',
  'ne.jp',
  'or.jp',
  'com.br',
  'com.ar',
  'com.mx',
  'com.es',
  'org.es',
  'nom.es',
  'com.cn',
  'com.tr',
  'co.za',
  'co.in',
  'co.kr',
  'com.sg',
  'com.hk',
  'github.io',
  'herokuapp.com',
  'netlify.app',
  'vercel.app',
  'pages.dev',
  'workers.dev',
  'duckdns.org',
]);

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
  if (SHARED_SUFFIXES.has(base.toLowerCase())) return 'wildcardSuffix';
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
