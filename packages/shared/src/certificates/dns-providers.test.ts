import { describe, expect, it } from 'vitest';
import { GOOD_DNS_CREDENTIALS as GOOD, HEX64, TOKEN } from '../../test/dns-credentials';
import {
  DNS_PROVIDER_NAMES,
  DNS_PROVIDERS,
  dnsCredentialsIni,
  dnsProviderOffer,
  dnsProviderOffers,
  type TDnsCredentials,
  ZDnsCredentials,
} from './dns-providers';

/** Values that would break out of a `key = value` line, or are simply not the field's form. */
const HOSTILE = [
  '',
  `${TOKEN}\ndns_rfc2136_server = 203.0.113.9`,
  `${TOKEN}\r\nx = y`,
  `${TOKEN} # comment`,
  `${TOKEN}=x`,
  `"${TOKEN}"`,
  `${TOKEN};rm -rf /`,
  `$(reboot)${TOKEN}`,
  'x'.repeat(5000),
];

function issues(value: unknown): string[] {
  const r = ZDnsCredentials.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
}

/** Every string field of a provider's credentials (not `provider`). */
function stringFields(c: TDnsCredentials): string[] {
  return Object.entries(c)
    .filter(([key, value]) => key !== 'provider' && typeof value === 'string')
    .map(([key]) => key);
}

describe("each provider's credentials", () => {
  it('has a registry entry, with a Debian package named after its certbot plugin', () => {
    expect(DNS_PROVIDER_NAMES.sort()).toEqual(Object.keys(GOOD).sort());
    for (const name of DNS_PROVIDER_NAMES) {
      const { debianPackage, plugin } = DNS_PROVIDERS[name];
      expect(plugin).toBe(`dns-${name}`);
      expect(debianPackage).toBe(`python3-certbot-dns-${name}`);
    }
  });

  it('accepts good values', () => {
    for (const good of Object.values(GOOD)) expect(issues(good), good.provider).toEqual([]);
    expect(issues({ ...GOOD.digitalocean, apiToken: HEX64 })).toEqual([]);
    expect(issues({ ...GOOD.ovh, endpoint: 'ovh-ca' })).toEqual([]);
  });

  it('refuses every hostile value in every field, on that field, with a catalog message', () => {
    for (const good of Object.values(GOOD)) {
      for (const field of stringFields(good)) {
        for (const bad of HOSTILE) {
          const found = issues({ ...good, [field]: bad });
          const what = `${good.provider}.${field} = ${JSON.stringify(bad.slice(0, 60))}`;
          expect(found.length, what).toBeGreaterThan(0);
          for (const issue of found)
            expect(issue, what).toMatch(new RegExp(`^${field}:(validation|certificates)\\.`));
        }
      }
    }
  });

  it('refuses what looks right but is not the provider’s form', () => {
    expect(issues({ ...GOOD.route53, accessKeyId: 'ASIAIOSFODNN7EXAMPLE' })).toEqual([
      'accessKeyId:certificates.dns.invalid.awsAccessKeyId',
    ]);
    expect(issues({ ...GOOD.route53, secretAccessKey: 'wJalrXUtnFEMI/K7MDENG' })).toEqual([
      'secretAccessKey:certificates.dns.invalid.awsSecretAccessKey',
    ]);
    expect(issues({ ...GOOD.digitalocean, apiToken: TOKEN })).toEqual([
      'apiToken:certificates.dns.invalid.digitaloceanToken',
    ]);
    expect(issues({ ...GOOD.ovh, endpoint: 'kimsufi-eu' })).toEqual([
      'endpoint:certificates.dns.invalid.ovhEndpoint',
    ]);
    expect(issues({ ...GOOD.linode, apiToken: 'abc_def-0123456789abcdef' })).toEqual([
      'apiToken:certificates.dns.invalid.linodeToken',
    ]);
    expect(issues({ provider: 'route53', apiToken: TOKEN })).toHaveLength(2);
  });

  it("renders each provider's file as certbot's plugin documents it", () => {
    const body = (c: TDnsCredentials) => dnsCredentialsIni(c).split('\n').slice(1, -1);
    expect(body(GOOD.digitalocean)).toEqual([`dns_digitalocean_token = dop_v1_${HEX64}`]);
    expect(body(GOOD.route53)).toEqual([
      '[default]',
      'aws_access_key_id = AKIAIOSFODNN7EXAMPLE',
      'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    ]);
    expect(body(GOOD.ovh)).toEqual([
      'dns_ovh_endpoint = ovh-eu',
      'dns_ovh_application_key = AbCdEf0123456789',
      'dns_ovh_application_secret = AbCdEf0123456789AbCdEf0123456789',
      'dns_ovh_consumer_key = ZyXwVu9876543210ZyXwVu9876543210',
    ]);
    expect(body(GOOD.gandi)).toEqual([`dns_gandi_token = ${GOOD.gandi.apiToken}`]);
    expect(body(GOOD.linode)).toEqual([`dns_linode_key = ${HEX64}`, 'dns_linode_version = 4']);
    expect(body(GOOD.dnsimple)).toEqual([`dns_dnsimple_token = ${GOOD.dnsimple.apiToken}`]);
    // Route 53's plugin takes no credentials option: it reads root's AWS configuration.
    expect(DNS_PROVIDERS.route53.fixedFile).toBe('/root/.aws/config');
    for (const good of Object.values(GOOD)) {
      for (const field of stringFields(good)) {
        expect(() =>
          dnsCredentialsIni({ ...good, [field]: HOSTILE[2] } as TDnsCredentials),
        ).toThrow();
      }
    }
  });
});

describe('what a server offers', () => {
  const facts = {
    dnsPlugins: {
      installed: ['python3-certbot-dns-rfc2136'],
      offered: ['python3-certbot-dns-cloudflare', 'python3-certbot-dns-rfc2136'],
    },
  };

  it('tells installed, offered, not offered; unknown without facts or a read index', () => {
    expect(dnsProviderOffer(facts, 'rfc2136')).toBe('installed');
    expect(dnsProviderOffer(facts, 'cloudflare')).toBe('offered');
    expect(dnsProviderOffer(facts, 'ovh')).toBe('not_offered');
    expect(dnsProviderOffer(null, 'ovh')).toBe('unknown');
    expect(dnsProviderOffer({ dnsPlugins: null }, 'ovh')).toBe('unknown');
    expect(dnsProviderOffer({}, 'ovh')).toBe('unknown');
    expect(dnsProviderOffers(facts)).toHaveLength(DNS_PROVIDER_NAMES.length);
  });
});
