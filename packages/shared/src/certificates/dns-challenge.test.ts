import { describe, expect, it } from 'vitest';
import { GOOD_DNS_CREDENTIALS, TOKEN } from '../../test/dns-credentials';
import {
  DNS_PROVIDERS,
  dnsCredentialsIni,
  siteDomainIssue,
  wildcardProblem,
  ZDnsChallengeInput,
  ZDnsCredentials,
} from './dns-challenge';

const RFC2136 = GOOD_DNS_CREDENTIALS.rfc2136;

function issues(value: unknown): string[] {
  const r = ZDnsCredentials.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
}

describe('wildcard names', () => {
  it('takes * as the whole first label over a registrable name', () => {
    expect(wildcardProblem('*.example.com')).toBeUndefined();
    expect(wildcardProblem('*.s1.dyn.portico.test')).toBeUndefined();
  });

  it('refuses * anywhere else, a public suffix under it, and plain names', () => {
    for (const bad of ['a.*.example.com', '*example.com', '**.example.com', '*.*.example.com']) {
      expect(wildcardProblem(bad), bad).toBe('wildcardForm');
    }
    expect(wildcardProblem('example.com')).toBe('wildcardForm');
    expect(wildcardProblem('*.com')).toBe('wildcardSuffix');
    expect(wildcardProblem('*.co.uk')).toBe('wildcardSuffix');
    expect(wildcardProblem('*.github.io')).toBe('wildcardSuffix');
  });

  it('reads the Public Suffix List: its ICANN and private suffixes, not a hand-kept list', () => {
    // Suffixes a short list would miss: each is names of many owners.
    for (const suffix of ['*.kawasaki.jp', '*.s3.amazonaws.com', '*.blogspot.com', '*.com.ar']) {
      expect(wildcardProblem(suffix), suffix).toBe('wildcardSuffix');
    }
    expect(wildcardProblem('*.CO.UK')).toBe('wildcardSuffix');
    // A name registered under a suffix is its owner's.
    for (const owned of ['*.example.co.uk', '*.me.github.io', '*.shop.example.com.ar']) {
      expect(wildcardProblem(owned), owned).toBeUndefined();
    }
  });
});

describe('a proxy domain', () => {
  it('is a domain or a valid wildcard, else says which rule it breaks', () => {
    expect(siteDomainIssue('app.example.com')).toBeUndefined();
    expect(siteDomainIssue('*.example.com')).toBeUndefined();
    expect(siteDomainIssue('nodot')).toBe('validation.domain.invalid');
    expect(siteDomainIssue('a.*.example.com')).toBe('validation.dns01.wildcardForm');
    expect(siteDomainIssue('*.com')).toBe('validation.dns01.wildcardSuffix');
  });
});

describe('DNS provider credentials', () => {
  it('accepts RFC 2136 with an address, a port, a TSIG name, an allowed algorithm, base64', () => {
    expect(issues(RFC2136)).toEqual([]);
    expect(issues({ ...RFC2136, server: '2001:db8::53', port: 5353 })).toEqual([]);
  });

  it('refuses a host name as server, a bad port, MD5, a secret that is not base64', () => {
    expect(issues({ ...RFC2136, server: 'ns1.example.com' })).toEqual([
      'server:validation.dns01.serverAddress',
    ]);
    expect(issues({ ...RFC2136, port: 70000 })).toEqual(['port:validation.port']);
    expect(issues({ ...RFC2136, algorithm: 'HMAC-MD5' })).toEqual([
      'algorithm:validation.dns01.algorithm',
    ]);
    for (const secret of ['not base64 at all!!', 'abc\ndns_rfc2136_server = 1.2.3.4', 'YWJj']) {
      expect(issues({ ...RFC2136, secret }), secret).toEqual([
        'secret:validation.dns01.secretBase64',
      ]);
    }
    expect(issues({ ...RFC2136, keyName: 'key name\nx' })).toEqual([
      'keyName:validation.dns01.keyName',
    ]);
  });

  it("renders each provider's certbot ini, one line per value", () => {
    expect(dnsCredentialsIni(RFC2136).split('\n').slice(1)).toEqual([
      'dns_rfc2136_server = 192.0.2.53',
      'dns_rfc2136_port = 53',
      'dns_rfc2136_name = portico-key.',
      `dns_rfc2136_secret = ${RFC2136.secret}`,
      'dns_rfc2136_algorithm = HMAC-SHA256',
      '',
    ]);
    expect(dnsCredentialsIni({ provider: 'cloudflare', apiToken: TOKEN }).split('\n')[1]).toBe(
      `dns_cloudflare_api_token = ${TOKEN}`,
    );
    expect(() =>
      dnsCredentialsIni({ provider: 'cloudflare', apiToken: `${TOKEN}\nx = y` }),
    ).toThrow();
  });

  it('names the Debian package and certbot plugin of each provider', () => {
    expect(DNS_PROVIDERS.rfc2136).toMatchObject({
      debianPackage: 'python3-certbot-dns-rfc2136',
      plugin: 'dns-rfc2136',
    });
    expect(DNS_PROVIDERS.cloudflare).toMatchObject({
      debianPackage: 'python3-certbot-dns-cloudflare',
      plugin: 'dns-cloudflare',
    });
  });

  it('refuses a provider not in the registry', () => {
    const r = ZDnsChallengeInput.safeParse({ credentials: { provider: 'godaddy', key: 'x' } });
    expect(r.success).toBe(false);
  });
});
