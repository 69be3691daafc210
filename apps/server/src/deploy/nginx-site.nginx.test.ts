import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useNginxScratch } from '../../test/support/nginx-scratch';
import { renderFinalSite, renderHttpSite, type TSiteInput } from './nginx-site';
import { serverNamesBucketSize } from './site-names';
import { isDomain } from './validate';

// Real `nginx -t` on rendered sites (apps/server/test/support/nginx-scratch.ts): nothing under /etc is
// read or written.
const NGINX = '/usr/sbin/nginx';
const scratch = useNginxScratch('portico-nginx');
const nginxTest = (...args: Parameters<typeof scratch>) => {
  const { ok, output } = scratch(...args);
  return { ok, output };
};

// Long labels on purpose: long names are where nginx's hash bucket sizes bite.
/** A valid domain of exactly `length` characters, labels at most 63. */
function domainOfLength(length: number): string {
  let head = '';
  while (head.length < length - 8) head += `${'a'.repeat(63)}.`;
  head = head.slice(0, length - 8);
  if (head.endsWith('.')) head = `b.${head.slice(0, -2)}`;
  return `${head}.example`;
}

const label = fc.oneof(
  fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/),
  fc.stringMatching(/^[a-z0-9][a-z0-9-]{50,61}[a-z0-9]$/),
);
const domain = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 4 }), fc.stringMatching(/^[a-z]{2,8}$/))
  .map(([labels, tld]) => [...labels, tld].join('.'))
  .filter(isDomain);
const segment = fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/).filter((s) => s !== '.' && s !== '..');
// Host names in proxy_pass are resolved when nginx loads the file; only names that resolve
// everywhere (localhost) are used here so the test checks syntax, not this machine's DNS.
const target = fc
  .record({
    scheme: fc.constantFrom('http', 'https', ''),
    host: fc.oneof(fc.ipV4(), fc.constant('localhost')),
    port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
    path: fc.array(segment, { maxLength: 3 }),
  })
  .map(
    ({ scheme, host, port, path }) =>
      `${scheme ? `${scheme}://` : ''}${host}${port ? `:${port}` : ''}${path.map((p) => `/${p}`).join('')}`,
  );
const siteInput: fc.Arbitrary<TSiteInput> = fc.record({ domain, target, ipv6: fc.boolean() });

describe('rendered sites pass a real nginx -t', () => {
  it('nginx is the version this module was written for (1.22 or newer)', () => {
    const v = spawnSync(NGINX, ['-v'], { encoding: 'utf8' }).stderr;
    const [, major, minor] = /nginx\/(\d+)\.(\d+)/.exec(v) ?? [];
    expect(Number(major) * 1000 + Number(minor)).toBeGreaterThanOrEqual(1022);
  });

  it('HTTP site for random valid inputs', () => {
    fc.assert(
      fc.property(siteInput, (input) => {
        const r = nginxTest([{ domain: input.domain, text: renderHttpSite(input) }]);
        expect(r.output).toBe('');
        expect(r.ok).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('final TLS site for random valid inputs', () => {
    fc.assert(
      fc.property(siteInput, (input) => {
        const text = (le: string) => renderFinalSite(input, { letsencryptDir: le });
        const r = nginxTest([{ domain: input.domain, text }]);
        expect(r.output).toBe('');
        expect(r.ok).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('several Portico sites, HTTP and TLS mixed, load together', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(siteInput, { minLength: 2, maxLength: 4, selector: (s) => s.domain }),
        (inputs) => {
          const sites = inputs.map((input, i) => ({
            domain: input.domain,
            text: (le: string) =>
              i % 2 ? renderHttpSite(input) : renderFinalSite(input, { letsencryptDir: le }),
          }));
          const r = nginxTest(sites);
          expect(r.output).toBe('');
          expect(r.ok).toBe(true);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('a 253-character domain with a long target path', () => {
    const longest = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    const input = { domain: longest, target: `http://127.0.0.1:65535/${'p'.repeat(200)}` };
    const r = nginxTest([
      { domain: longest, text: (le) => renderFinalSite(input, { letsencryptDir: le }) },
      { domain: 'a.example', text: renderHttpSite({ domain: 'a.example', target: '10.0.0.1' }) },
    ]);
    expect(r.output).toBe('');
    expect(r.ok).toBe(true);
  });

  it('a 46-character domain next to the default site loads with nginx defaults', () => {
    const domain = domainOfLength(46);
    expect(serverNamesBucketSize(domain)).toBe(64);
    const site = [{ domain, text: renderHttpSite({ domain, target: '10.0.0.1' }) }];
    expect(nginxTest(site)).toEqual({ ok: true, output: '' });
  });

  it.each([
    [47, 128],
    [110, 128],
    [111, 256],
    [238, 256],
    [239, 512],
  ])('a %i-character domain loads with a bucket of %i and not with half of it', (len, size) => {
    const domain = domainOfLength(len);
    expect(domain.length).toBe(len);
    expect(serverNamesBucketSize(domain)).toBe(size);
    const site = [{ domain, text: renderHttpSite({ domain, target: '10.0.0.1' }) }];
    expect(nginxTest(site, size).ok).toBe(true);
    const smaller = nginxTest(site, size / 2);
    expect(smaller.ok).toBe(false);
    expect(smaller.output).toContain('server_names_hash_bucket_size');
  });

  it('the harness does catch a broken site', () => {
    const r = nginxTest([{ domain: 'a.example', text: 'server { listen 80; bogus_directive; }' }]);
    expect(r.ok).toBe(false);
    expect(r.output).toContain('unknown directive "bogus_directive"');
  });
});
