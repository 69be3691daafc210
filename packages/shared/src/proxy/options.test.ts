import { describe, expect, it } from 'vitest';
import { translate } from '../i18n/translate';
import { redirectLoops, ZProxyOptionsInput } from './options';
import { cidrProblem, upstreamParts } from './options-rules';

/** The first issue's path and its words in both languages. */
function refusal(options: unknown) {
  const r = ZProxyOptionsInput.safeParse(options);
  if (r.success) throw new Error(`accepted ${JSON.stringify(options)}`);
  const issue = r.error.issues[0]!;
  return {
    path: issue.path.join('.'),
    key: issue.message,
    en: translate('en', issue.message),
    es: translate('es', issue.message),
  };
}

const many = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ url: `10.0.${i >> 8}.${i & 255}:8080` }));

describe('ZProxyOptionsInput refuses bad input field by field, in en and es', () => {
  it.each([
    ['500 upstreams', { upstreams: many(500) }, 'upstreams', 'upstreamsTooMany'],
    ['a CIDR with host bits set', { deny: ['10.0.0.1/8'] }, 'deny.0', 'cidrHostBits'],
    ['a CIDR prefix over 32', { allow: ['10.0.0.0/33'] }, 'allow.0', 'cidr'],
    [
      'a header name with a colon',
      { headers: [{ name: 'X-A:b', value: 'v' }] },
      'headers.0.name',
      'headerName',
    ],
    [
      'a header name with CRLF',
      { headers: [{ name: 'X-A\r\nSet-Cookie', value: 'v' }] },
      'headers.0.name',
      'headerName',
    ],
    [
      'a header value with CRLF',
      { headers: [{ name: 'X-A', value: 'a\r\nb' }] },
      'headers.0.value',
      'headerValue',
    ],
    [
      'a header value with $',
      { headers: [{ name: 'X-A', value: '$host' }] },
      'headers.0.value',
      'headerValue',
    ],
    [
      'a header value with a quote',
      { headers: [{ name: 'X-A', value: 'a"b' }] },
      'headers.0.value',
      'headerValue',
    ],
    [
      'a reserved header',
      { headers: [{ name: 'strict-transport-security', value: 'x' }] },
      'headers.0.name',
      'headerReserved',
    ],
    [
      'a location path with {',
      { locations: [{ path: '/a{b', upstreams: [{ url: '10.0.0.1' }] }] },
      'locations.0.path',
      'locationPath',
    ],
    [
      'a location path with ;',
      { locations: [{ path: '/a;b', upstreams: [{ url: '10.0.0.1' }] }] },
      'locations.0.path',
      'locationPath',
    ],
    [
      'a location path with a space',
      { locations: [{ path: '/a b', upstreams: [{ url: '10.0.0.1' }] }] },
      'locations.0.path',
      'locationPath',
    ],
    [
      'the ACME path as a location',
      { locations: [{ path: '/.well-known/acme-challenge/', upstreams: [{ url: '10.0.0.1' }] }] },
      'locations.0.path',
      'locationPath',
    ],
    [
      'a redirect to javascript:',
      { redirect: { to: 'javascript:alert(1)' } },
      'redirect.to',
      'redirectUrl',
    ],
    [
      'a redirect code 200',
      { redirect: { to: 'https://b.example', code: 200 } },
      'redirect.code',
      'redirectCode',
    ],
    [
      'a basic-auth user with :',
      { basicAuth: [{ username: 'a:b', password: 'long enough' }] },
      'basicAuth.0.username',
      'username',
    ],
    [
      'two users of one name',
      { basicAuth: [{ username: 'a', password: 'long enough' }, { username: 'a' }] },
      'basicAuth.1.username',
      'usernameDuplicate',
    ],
    [
      'mixed upstream schemes',
      { upstreams: [{ url: 'http://10.0.0.1' }, { url: 'https://10.0.0.2' }] },
      'upstreams.1.url',
      'upstreamsMixed',
    ],
    [
      'backup with ip_hash',
      {
        loadBalancing: 'ip_hash',
        upstreams: [{ url: '10.0.0.1' }, { url: '10.0.0.2', backup: true }],
      },
      'upstreams.1.backup',
      'backupWithIpHash',
    ],
    ['an unknown option', { rewrite: 'x' }, '', 'unknown'],
    ['advanced lines with a brace', { advanced: 'location / { }' }, 'advanced', 'advanced'],
    [
      'a weight of 0',
      { upstreams: [{ url: '10.0.0.1', weight: 0 }] },
      'upstreams.0.weight',
      'weight',
    ],
  ])('%s', (_, options, path, reason) => {
    const r = refusal(options);
    expect(r.key).toBe(`proxyOptions.invalid.${reason}`);
    expect(r.path).toBe(path);
    expect(r.en).not.toBe(r.key);
    expect(r.es).not.toBe(r.key);
    expect(r.es).not.toBe(r.en);
  });

  it('accepts every option at once', () => {
    const r = ZProxyOptionsInput.parse({
      upstreams: [
        { url: 'http://10.0.0.1:8080/app' },
        { url: 'http://10.0.0.2:8080/app', weight: 3, backup: true },
      ],
      loadBalancing: 'least_conn',
      health: { maxFails: 3, failTimeout: 30 },
      hsts: { maxAge: 31536000, includeSubDomains: true, preload: true },
      headers: [{ name: 'X-Frame-Options', value: 'DENY' }],
      clientMaxBodyMb: 0,
      timeouts: { connect: 10, read: 600 },
      websocket: false,
      compression: true,
      basicAuth: [{ username: 'ana', password: 'correct horse' }],
      allow: ['10.0.0.0/8', '192.0.2.7'],
      deny: ['0.0.0.0/0'],
      locations: [{ path: '/api/', upstreams: [{ url: 'http://10.0.0.9:9000' }] }],
      redirect: { to: 'https://new.example/base', code: 308, keepPath: true },
      advanced: 'add_header X-Robots-Tag none;',
    });
    expect(r.upstreams).toHaveLength(2);
    expect(r.redirect).toEqual({ to: 'https://new.example/base', code: 308, keepPath: true });
  });
});

describe('options rules', () => {
  it.each([
    ['10.0.0.0/8', undefined],
    ['10.0.0.1/8', 'cidrHostBits'],
    ['0.0.0.0/0', undefined],
    ['1.0.0.0/0', 'cidrHostBits'],
    ['192.0.2.7', undefined],
    ['192.0.2.7/32', undefined],
    ['192.0.2.07', 'cidr'],
    ['192.0.2.0/24/1', 'cidr'],
    ['::1', undefined],
    ['1.2.3.4/33', 'cidr'],
  ])('cidr %s', (value, problem) => {
    expect(cidrProblem(value)).toBe(problem);
  });

  it('upstream parts carry an explicit port and a normalised path', () => {
    expect(upstreamParts('https://App.example/x')).toEqual({
      scheme: 'https',
      host: 'app.example',
      port: 443,
      path: '/x/',
    });
    expect(upstreamParts('10.0.0.1')).toEqual({
      scheme: 'http',
      host: '10.0.0.1',
      port: 80,
      path: '',
    });
    expect(upstreamParts('http://h/a/../b')).toBeUndefined();
    expect(upstreamParts('http://h:0')).toBeUndefined();
    expect(upstreamParts('http://user@h')).toBeUndefined();
  });

  it('a redirect to the proxy domain loops', () => {
    expect(
      redirectLoops('a.example', {
        redirect: { to: 'https://A.example/x', code: 301, keepPath: true },
      }),
    ).toBe(true);
    expect(
      redirectLoops('a.example', {
        redirect: { to: 'https://b.example', code: 301, keepPath: true },
      }),
    ).toBe(false);
  });
});
