import { z } from 'zod';
import type { TServerFacts } from '../ssh-servers/facts';
import { isIpv4 } from '../validation/rules';

/**
 * DNS-01 providers (issue 41): certbot's DNS plugins Debian packages. Each entry names the
 * package holding the plugin, the plugin (`--<plugin>`, `--<plugin>-credentials`) and the lines
 * of the file its credentials are read from. Every value is allowlisted by its schema: it ends
 * up on a `key = value` line, so no newline, `#`, quote or space gets through, and `=` only as
 * base64's padding. Adding a provider is one schema, one entry here and its fields' texts.
 */

/** TSIG algorithms certbot's rfc2136 plugin knows, without the broken MD5 and SHA-1. */
export const TSIG_ALGORITHMS = [
  'HMAC-SHA224',
  'HMAC-SHA256',
  'HMAC-SHA384',
  'HMAC-SHA512',
] as const;

/** OVH's API endpoints certbot's ovh plugin (through python-ovh) knows. */
export const OVH_ENDPOINTS = ['ovh-eu', 'ovh-ca', 'ovh-us'] as const;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const IPV6 = /^[0-9a-fA-F:]{2,39}$/;
const KEY_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,62})(?:\.[A-Za-z0-9_-]{1,63})*\.?$/;
/** A bearer token as the providers print them: letters, digits, `_` and `-`. */
const TOKEN = /^[A-Za-z0-9_-]{20,200}$/;
// DigitalOcean's personal access tokens: `dop_v1_` and 64 hex digits (older ones: the digits).
const DIGITALOCEAN_TOKEN = /^(?:dop_v1_)?[a-f0-9]{64}$/;
const LINODE_TOKEN = /^[A-Za-z0-9]{20,128}$/;
// AWS: a long-term access key id (AKIA…, 20 characters) and its 40-character secret.
const AWS_ACCESS_KEY_ID = /^AKIA[A-Z0-9]{16}$/;
const AWS_SECRET_ACCESS_KEY = /^[A-Za-z0-9/+]{40}$/;
const OVH_KEY = /^[A-Za-z0-9]{8,64}$/;

function isIpv6(value: string): boolean {
  return IPV6.test(value) && value.includes(':') && (value.match(/::/g) ?? []).length <= 1;
}

// A provider's own refusals are `certificates.dns.invalid.*`, not `validation.*`: the landing
// page carries the whole `validation` group (e2e/first-paint.spec.ts), and only the screens
// behind sign-in, which load the server's catalog, show these.
const token = (pattern: RegExp, message: string) => z.string().regex(pattern, message);

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
  apiToken: token(TOKEN, 'validation.dns01.apiToken'),
});

export const ZDigitalOceanCredentials = z.object({
  provider: z.literal('digitalocean'),
  apiToken: token(DIGITALOCEAN_TOKEN, 'certificates.dns.invalid.digitaloceanToken'),
});

export const ZRoute53Credentials = z.object({
  provider: z.literal('route53'),
  accessKeyId: token(AWS_ACCESS_KEY_ID, 'certificates.dns.invalid.awsAccessKeyId'),
  secretAccessKey: token(AWS_SECRET_ACCESS_KEY, 'certificates.dns.invalid.awsSecretAccessKey'),
});

export const ZOvhCredentials = z.object({
  provider: z.literal('ovh'),
  endpoint: z.enum(OVH_ENDPOINTS, { message: 'certificates.dns.invalid.ovhEndpoint' }),
  applicationKey: token(OVH_KEY, 'certificates.dns.invalid.ovhKey'),
  applicationSecret: token(OVH_KEY, 'certificates.dns.invalid.ovhKey'),
  consumerKey: token(OVH_KEY, 'certificates.dns.invalid.ovhKey'),
});

export const ZGandiCredentials = z.object({
  provider: z.literal('gandi'),
  apiToken: token(TOKEN, 'validation.dns01.apiToken'),
});

export const ZLinodeCredentials = z.object({
  provider: z.literal('linode'),
  apiToken: token(LINODE_TOKEN, 'certificates.dns.invalid.linodeToken'),
});

export const ZDnsimpleCredentials = z.object({
  provider: z.literal('dnsimple'),
  apiToken: token(TOKEN, 'validation.dns01.apiToken'),
});

export const ZDnsCredentials = z.discriminatedUnion('provider', [
  ZRfc2136Credentials,
  ZCloudflareCredentials,
  ZDigitalOceanCredentials,
  ZRoute53Credentials,
  ZOvhCredentials,
  ZGandiCredentials,
  ZLinodeCredentials,
  ZDnsimpleCredentials,
]);
export type TDnsCredentials = z.infer<typeof ZDnsCredentials>;
export type TDnsProviderName = TDnsCredentials['provider'];

type TProvider<P extends TDnsProviderName> = {
  /** The provider's own name, the same in every language. */
  title: string;
  /** Debian's package with certbot's plugin (installed like nginx and certbot). */
  debianPackage: string;
  /** certbot's plugin: `--<plugin>`, `--<plugin>-credentials`, `--<plugin>-propagation-seconds`. */
  plugin: string;
  /**
   * Where the plugin reads its credentials when it takes no `--<plugin>-credentials` file:
   * Route 53's reads AWS's shared configuration of the user certbot runs as (root), also when
   * a timer renews, so the file is root's `~/.aws/config`.
   */
  fixedFile?: string;
  /** The credentials file's lines (values already validated). */
  ini(c: Extract<TDnsCredentials, { provider: P }>): string[];
};

export const DNS_PROVIDERS: { [P in TDnsProviderName]: TProvider<P> } = {
  rfc2136: {
    title: 'RFC 2136',
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
    title: 'Cloudflare',
    debianPackage: 'python3-certbot-dns-cloudflare',
    plugin: 'dns-cloudflare',
    ini: (c) => [`dns_cloudflare_api_token = ${c.apiToken}`],
  },
  digitalocean: {
    title: 'DigitalOcean',
    debianPackage: 'python3-certbot-dns-digitalocean',
    plugin: 'dns-digitalocean',
    ini: (c) => [`dns_digitalocean_token = ${c.apiToken}`],
  },
  route53: {
    title: 'Amazon Route 53',
    debianPackage: 'python3-certbot-dns-route53',
    plugin: 'dns-route53',
    fixedFile: '/root/.aws/config',
    ini: (c) => [
      '[default]',
      `aws_access_key_id = ${c.accessKeyId}`,
      `aws_secret_access_key = ${c.secretAccessKey}`,
    ],
  },
  ovh: {
    title: 'OVH',
    debianPackage: 'python3-certbot-dns-ovh',
    plugin: 'dns-ovh',
    ini: (c) => [
      `dns_ovh_endpoint = ${c.endpoint}`,
      `dns_ovh_application_key = ${c.applicationKey}`,
      `dns_ovh_application_secret = ${c.applicationSecret}`,
      `dns_ovh_consumer_key = ${c.consumerKey}`,
    ],
  },
  gandi: {
    title: 'Gandi',
    debianPackage: 'python3-certbot-dns-gandi',
    plugin: 'dns-gandi',
    // A personal access token (the plugin's 1.5 and later; Gandi no longer issues API keys).
    ini: (c) => [`dns_gandi_token = ${c.apiToken}`],
  },
  linode: {
    title: 'Linode',
    debianPackage: 'python3-certbot-dns-linode',
    plugin: 'dns-linode',
    ini: (c) => [`dns_linode_key = ${c.apiToken}`, 'dns_linode_version = 4'],
  },
  dnsimple: {
    title: 'DNSimple',
    debianPackage: 'python3-certbot-dns-dnsimple',
    plugin: 'dns-dnsimple',
    ini: (c) => [`dns_dnsimple_token = ${c.apiToken}`],
  },
};

export const DNS_PROVIDER_NAMES = Object.keys(DNS_PROVIDERS) as TDnsProviderName[];

/** The first line of every credentials file Portico writes: how it tells its own file. */
export const DNS_CREDENTIALS_MARK = '# Managed by Portico';

/**
 * The credentials file certbot reads. Validated again here: a value that would break a line
 * (or add one) never reaches the file.
 */
export function dnsCredentialsIni(credentials: TDnsCredentials): string {
  const c = ZDnsCredentials.parse(credentials);
  const lines = (DNS_PROVIDERS[c.provider].ini as (v: TDnsCredentials) => string[])(c);
  return `${DNS_CREDENTIALS_MARK}: certbot's ${c.provider} DNS credentials.\n${lines.join('\n')}\n`;
}

/**
 * Whether a server can run a provider's plugin, by its last check's facts: installed, offered
 * by its package manager, not offered (refused before anything is written), or unknown (no
 * facts, or a package index Portico could not read: the deployment finds out).
 */
export const DNS_PROVIDER_OFFERS = ['installed', 'offered', 'not_offered', 'unknown'] as const;
export type TDnsProviderOffer = (typeof DNS_PROVIDER_OFFERS)[number];

export function dnsProviderOffer(
  facts: Pick<TServerFacts, 'dnsPlugins'> | null | undefined,
  provider: TDnsProviderName,
): TDnsProviderOffer {
  const plugins = facts?.dnsPlugins;
  if (!plugins) return 'unknown';
  const pkg = DNS_PROVIDERS[provider].debianPackage;
  if (plugins.installed.includes(pkg)) return 'installed';
  return plugins.offered.includes(pkg) ? 'offered' : 'not_offered';
}

export const ZDnsProviderOffers = z.array(
  z.object({
    provider: z.enum(DNS_PROVIDER_NAMES as [TDnsProviderName, ...TDnsProviderName[]]),
    offer: z.enum(DNS_PROVIDER_OFFERS),
  }),
);
export type TDnsProviderOffers = z.infer<typeof ZDnsProviderOffers>;

/** Every provider of the registry with what the server's facts say of it. */
export function dnsProviderOffers(
  facts: Pick<TServerFacts, 'dnsPlugins'> | null | undefined,
): TDnsProviderOffers {
  return DNS_PROVIDER_NAMES.map((provider) => ({
    provider,
    offer: dnsProviderOffer(facts, provider),
  }));
}
