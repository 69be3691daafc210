// IPv4 and IPv6 allow/deny entries (docs/PRODUCT.md#proxy-options): the shared allowlist
// (`cidrProblem`) against Node's own address parser, and what the site file says for each.
import { isIP } from 'node:net';
import { ZProxyOptionsInput } from '@portico/shared/proxy/options';
import { cidrProblem } from '@portico/shared/proxy/options-rules';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ipv6Network, ipv6WithHostBits } from '../../test/support/ip-arbitraries';
import { renderFinalSite } from './nginx-site';

describe('IPv6 allow and deny entries', () => {
  it.each([
    ['2001:db8::/32', undefined],
    ['2001:DB8::1', undefined],
    ['::/0', undefined],
    ['::1', undefined],
    ['::1/128', undefined],
    ['fe80::/10', undefined],
    ['2001:db8:0:0:0:0:0:1', undefined],
    ['2001:db8::1/32', 'cidrHostBits'],
    ['::1/0', 'cidrHostBits'],
    ['2001:db8::/129', 'cidr'],
    ['2001:db8::/032', 'cidr'],
    ['2001:db8::/', 'cidr'],
    ['2001:db8:::1', 'cidr'],
    ['2001::db8::1', 'cidr'],
    ['1:2:3:4:5:6:7:8:9', 'cidr'],
    ['1:2:3:4:5:6:7', 'cidr'],
    ['1:2:3:4:5:6:7::8', 'cidr'],
    ['12345::', 'cidr'],
    ['fe80::1%eth0', 'cidr'],
    ['::ffff:192.0.2.1', 'cidr'],
    ['2001:db8::g', 'cidr'],
    [':', 'cidr'],
    [':::', 'cidr'],
    ['2001:db8::1;', 'cidr'],
    ['2001:db8:: 1', 'cidr'],
    ['[2001:db8::1]', 'cidr'],
  ])('%s', (value, problem) => {
    expect(cidrProblem(value)).toBe(problem);
  });

  it('every IPv6 network, full or with ::, in either case, is accepted', () => {
    fc.assert(
      fc.property(ipv6Network, (value) => {
        expect(cidrProblem(value)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('an IPv6 network with a host bit set past its prefix is refused as such', () => {
    fc.assert(
      fc.property(ipv6WithHostBits, (value) => {
        expect(cidrProblem(value)).toBe('cidrHostBits');
      }),
      { numRuns: 500 },
    );
  });

  it('any string of address characters is accepted only when Node reads it as a plain address', () => {
    const text = fc.stringMatching(/^[0-9a-fA-F:.%/g ]{0,45}$/);
    fc.assert(
      fc.property(text, (value) => {
        const [address = '', prefix, ...rest] = value.split('/');
        // Node also takes IPv4 tails and zones; the allowlist takes neither.
        const plain = !address.includes('%') && !(address.includes(':') && address.includes('.'));
        const prefixOk =
          prefix === undefined ||
          (/^(?:0|[1-9][0-9]*)$/.test(prefix) &&
            Number(prefix) <= (address.includes(':') ? 128 : 32));
        const valid = rest.length === 0 && plain && isIP(address) !== 0 && prefixOk;
        if (!valid) expect(cidrProblem(value)).toBe('cidr');
        else expect(cidrProblem(value)).not.toBe('cidr');
      }),
      { numRuns: 2000 },
    );
  });

  it('both families render as nginx allow and deny lines, denied first', () => {
    const options = ZProxyOptionsInput.parse({
      allow: ['2001:db8::/32', '10.0.0.0/8'],
      deny: ['2001:db8::5'],
    });
    const text = renderFinalSite(
      {
        domain: 'app.example.com',
        target: 'http://10.0.0.1:8080',
        options: { allow: options.allow, deny: options.deny },
        htpasswdPath: '/etc/nginx/portico-htpasswd/app.example.com',
      },
      { letsencryptDir: '/etc/letsencrypt' },
    );
    expect(text).toContain(
      '    deny 2001:db8::5;\n    allow 2001:db8::/32;\n    allow 10.0.0.0/8;\n    deny all;\n',
    );
  });
});
