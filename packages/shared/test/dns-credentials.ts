// Test support only (product code never imports packages/shared/test): one valid set of DNS-01
// credentials per provider of the registry, for the shared schema's tests.
import type { TDnsCredentials } from '../src/certificates/dns-providers';

export const HEX64 = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
export const TOKEN = 'Ab3_def-ghijklmnopqrstuvwxyz0123456789';

/** One valid set of credentials per provider. */
export const GOOD_DNS_CREDENTIALS: {
  [P in TDnsCredentials['provider']]: Extract<TDnsCredentials, { provider: P }>;
} = {
  rfc2136: {
    provider: 'rfc2136',
    server: '192.0.2.53',
    port: 53,
    keyName: 'portico-key.',
    algorithm: 'HMAC-SHA256',
    secret: 'OWSVqAbRnvm/d1obcIUzUl9pnLnCL21UShrNvZxFHfw=',
  },
  cloudflare: { provider: 'cloudflare', apiToken: TOKEN },
  digitalocean: { provider: 'digitalocean', apiToken: `dop_v1_${HEX64}` },
  route53: {
    provider: 'route53',
    accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
    secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  },
  ovh: {
    provider: 'ovh',
    endpoint: 'ovh-eu',
    applicationKey: 'AbCdEf0123456789',
    applicationSecret: 'AbCdEf0123456789AbCdEf0123456789',
    consumerKey: 'ZyXwVu9876543210ZyXwVu9876543210',
  },
  gandi: { provider: 'gandi', apiToken: '0123456789abcdef0123456789abcdef01234567' },
  linode: { provider: 'linode', apiToken: HEX64 },
  dnsimple: { provider: 'dnsimple', apiToken: 'dnsimpletokenABCDEF0123456789' },
};
