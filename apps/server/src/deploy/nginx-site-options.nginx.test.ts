import { type TProxyOptions, ZProxyOptions } from '@portico/shared/proxy/options';
import { HEADER_VALUE, LOCATION_PATH } from '@portico/shared/proxy/options-rules';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ipv6Network } from '../../test/support/ip-arbitraries';
import { useNginxScratch } from '../../test/support/nginx-scratch';
import { renderFinalSite, renderHttpSite } from './nginx-site';

// Generated valid options through the one template into a real `nginx -t`
// (test/support/nginx-scratch.ts): every option, alone and together.
const scratch = useNginxScratch('portico-options');
const HASH = `$6$saltsalt$${'a'.repeat(86)}`;

// Hosts that resolve everywhere: the test checks the file, not this machine's DNS.
const host = fc.oneof(fc.ipV4(), fc.constant('localhost'));
const port = fc.integer({ min: 1, max: 65535 });
const segment = fc.stringMatching(/^[A-Za-z0-9_~-]{1,8}$/);

/** A group: one scheme and one path, at least one server not a backup. */
const group = (backups: boolean) =>
  fc
    .record({
      scheme: fc.constantFrom('http://', 'https://', ''),
      path: fc.array(segment, { maxLength: 2 }),
      servers: fc.array(
        fc.record({
          host,
          port,
          weight: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
          backup: backups ? fc.boolean() : fc.constant(false),
        }),
        { minLength: 1, maxLength: 5 },
      ),
    })
    .map(({ scheme, path, servers }) =>
      servers.map((s, i) => ({
        url: `${scheme}${s.host}:${s.port}${path.map((p) => `/${p}`).join('')}`,
        ...(s.weight === undefined ? {} : { weight: s.weight }),
        ...(s.backup && i > 0 ? { backup: true } : {}),
      })),
    );

/** A network address: an IPv4 address with its host bits cleared. */
const cidr4 = fc
  .tuple(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 0, max: 32 }))
  .map(([n, prefix]) => {
    const net = prefix === 0 ? 0 : n - (n % 2 ** (32 - prefix));
    const ip = [24, 16, 8, 0].map((s) => Math.floor(net / 2 ** s) % 256).join('.');
    return prefix === 32 ? ip : `${ip}/${prefix}`;
  });
/** The same in IPv6, full or with `::` (the generator of options-rules' property tests). */
const cidr = fc.oneof(cidr4, ipv6Network);

const options: fc.Arbitrary<TProxyOptions> = fc
  .record(
    {
      method: fc.constantFrom('round_robin', 'least_conn', 'ip_hash'),
      upstreams: group(true),
      health: fc.record({
        maxFails: fc.integer({ min: 0, max: 100 }),
        failTimeout: fc.integer({ min: 1, max: 3600 }),
      }),
      hsts: fc.record({
        maxAge: fc.integer({ min: 0, max: 63072000 }),
        includeSubDomains: fc.boolean(),
        preload: fc.boolean(),
      }),
      headers: fc.uniqueArray(
        fc.record({
          name: fc.stringMatching(/^X-[A-Za-z0-9-]{1,20}$/),
          value: fc.stringMatching(HEADER_VALUE),
        }),
        { maxLength: 4, selector: (h) => h.name.toLowerCase() },
      ),
      clientMaxBodyMb: fc.integer({ min: 0, max: 10240 }),
      timeouts: fc.record(
        {
          connect: fc.integer({ min: 1, max: 75 }),
          send: fc.integer({ min: 1, max: 86400 }),
          read: fc.integer({ min: 1, max: 86400 }),
        },
        { requiredKeys: [] },
      ),
      websocket: fc.boolean(),
      compression: fc.boolean(),
      basicAuth: fc
        .uniqueArray(fc.stringMatching(/^[A-Za-z0-9._@-]{1,12}$/), { minLength: 1, maxLength: 3 })
        .map((names) => names.map((username) => ({ username, passwordHash: HASH }))),
      allow: fc.array(cidr, { maxLength: 4 }),
      deny: fc.array(cidr, { maxLength: 4 }),
      locations: fc.uniqueArray(
        fc.record({
          path: fc
            .stringMatching(LOCATION_PATH)
            .filter((p) => p.length > 1 && p.length < 40 && !p.startsWith('/.well-known')),
          upstreams: group(true),
        }),
        { maxLength: 3, selector: (l) => l.path },
      ),
      redirect: fc.record({
        to: fc
          .tuple(fc.constantFrom('http://', 'https://'), host, fc.array(segment, { maxLength: 2 }))
          .map(([s, h, p]) => `${s}${h}${p.map((x) => `/${x}`).join('')}`),
        code: fc.constantFrom(301, 302, 307, 308),
        keepPath: fc.boolean(),
      }),
      advanced: fc.constantFrom(
        'proxy_buffering off;',
        'add_header X-Robots-Tag "noindex" always;\nproxy_buffering on;',
      ),
    },
    { requiredKeys: [] },
  )
  .map(({ method, ...o }) => {
    // ip_hash takes no backup servers (the schema refuses that pairing).
    const noBackup = (g: { url: string; backup?: boolean }[]) => g.map(({ backup: _, ...u }) => u);
    if (method !== 'ip_hash') return { ...o, loadBalancing: method } as TProxyOptions;
    return {
      ...o,
      loadBalancing: method,
      upstreams: o.upstreams && noBackup(o.upstreams),
      locations: o.locations?.map((l) => ({ ...l, upstreams: noBackup(l.upstreams) })),
    } as TProxyOptions;
  })
  .filter((o) => ZProxyOptions.safeParse(o).success);

const domain = fc.constantFrom('app.example.com', 'a-b.example', 'x.y.example.org');
const input = (d: string, o: TProxyOptions) => ({
  domain: d,
  target: 'http://127.0.0.1:8080',
  options: o,
  allowAdvanced: true,
  htpasswdPath: `/etc/nginx/portico-htpasswd/${d}`,
});

describe('every option through the template into a real nginx -t', () => {
  it('the generator is valid by the shared schema and reaches every option', () => {
    const seen = new Set<string>();
    for (const o of fc.sample(options, 300)) for (const k of Object.keys(o)) seen.add(k);
    expect([...seen].sort()).toEqual(
      [
        'advanced',
        'allow',
        'basicAuth',
        'clientMaxBodyMb',
        'compression',
        'deny',
        'headers',
        'health',
        'hsts',
        'loadBalancing',
        'locations',
        'redirect',
        'timeouts',
        'upstreams',
        'websocket',
      ].sort(),
    );
  });

  it('HTTP and final TLS sites with generated options load, side by side', () => {
    fc.assert(
      fc.property(options, options, (a, b) => {
        const r = scratch([
          { domain: 'app.example.com', text: renderHttpSite(input('app.example.com', a)) },
          {
            domain: 'a-b.example',
            text: (le) => renderFinalSite(input('a-b.example', b), { letsencryptDir: le }),
          },
        ]);
        expect(r.output).toBe('');
        expect(r.ok).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('one domain, every option at once', () => {
    fc.assert(
      fc.property(domain, options, (d, o) => {
        const r = scratch([
          { domain: d, text: (le) => renderFinalSite(input(d, o), { letsencryptDir: le }) },
        ]);
        expect(r.output).toBe('');
        expect(r.ok).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});
