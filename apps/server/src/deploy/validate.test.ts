import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assertDomain,
  assertEmail,
  assertIpv4,
  assertPort,
  assertSiteDomain,
  assertSshUser,
  assertTarget,
  DeployValidationError,
  formatTarget,
  isDomain,
  normalizeTarget,
} from './validate';

// Shapes that have broken comparable tools: shell metacharacters, line breaks of every kind,
// nginx directive injection, path traversal, option injection.
const hostile = [
  "a'b",
  'a"b',
  'a;b',
  'a; rm -rf /',
  '$(id)',
  '`id`',
  'a\nb',
  'a\rb',
  'a\r\nb',
  'a\u2028b',
  'a\u2029b',
  'a\u0085b',
  'a\0b',
  'a\tb',
  ' a',
  'a ',
  'a b',
  '-a',
  '--help',
  '../etc',
  '{a}',
  'a}',
  'x; return 200',
  'x;return 200 "pwned";',
  'a|b',
  'a&b',
  'a>b',
  'a\\b',
  'a#b',
  'a*',
  '',
];
// Appended to a valid value, '', '-a' and '--help' leave it valid (example.com-a, /app/-a).
const hostileTails = hostile.filter((h) => !/^[-a-z]*$/.test(h));

function refused(fn: () => unknown, field: string): void {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(DeployValidationError);
  expect((error as DeployValidationError).field).toBe(field);
}

describe('assertDomain', () => {
  it.each(['example.com', 'a.b', 'sub-1.example.co.uk', 'xn--bcher-kva.example', 'app.test'])(
    'accepts %j',
    (d) => expect(assertDomain(d)).toBe(d),
  );

  const bad = [
    'localhost',
    'Example.com',
    'example.com.',
    '.example.com',
    'a..b',
    '-a.com',
    'a-.com',
    'a_b.com',
    '*.example.com',
    '1.2.3.4',
    'example.123',
    `${'a'.repeat(64)}.com`,
    `${'a.'.repeat(127)}com`,
    'exämple.com',
    'example.com:80',
    'example.com/x',
    ...hostile.map((h) => `${h}.example.com`),
    ...hostileTails.map((h) => `example.com${h}`),
    ...hostile,
  ];
  it.each(bad)('refuses %j', (d) => {
    refused(() => assertDomain(d), 'domain');
    expect(isDomain(d)).toBe(false);
  });

  it('accepts 63-character labels and 253-character names', () => {
    const name = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(name).toHaveLength(253);
    expect(assertDomain(name)).toBe(name);
  });

  it('refuses non-strings with the field named', () => {
    refused(() => assertDomain(42, 'serverIp'), 'serverIp');
    refused(() => assertDomain(undefined), 'domain');
  });
});

describe('assertSiteDomain', () => {
  it('takes a domain, or * as the whole first label over a registrable name', () => {
    expect(assertSiteDomain('app.example.com')).toBe('app.example.com');
    expect(assertSiteDomain('*.example.com')).toBe('*.example.com');
  });

  it.each([
    '*.com',
    '*.co.uk',
    'a.*.example.com',
    '*.*.example.com',
    '*example.com',
    '*.example.com\n',
    '*.Example.com',
    ...hostile.map((h) => `*.${h}.example.com`),
  ])('refuses %j', (d) => refused(() => assertSiteDomain(d), 'domain'));
});

describe('assertIpv4', () => {
  it.each(['0.0.0.0', '198.18.0.11', '255.255.255.255', '10.0.0.1'])('accepts %j', (ip) =>
    expect(assertIpv4(ip)).toBe(ip),
  );
  it.each([
    '256.1.1.1',
    '1.2.3',
    '1.2.3.4.5',
    '01.2.3.4',
    '1.2.3.4 ',
    '1.2.3.4\n',
    '::1',
    '1.2.3.-4',
    '1.2.3.4:22',
    '0x7f.0.0.1',
    ...hostile,
  ])('refuses %j', (ip) => refused(() => assertIpv4(ip, 'serverIp'), 'serverIp'));
});

describe('assertSshUser', () => {
  it.each(['root', 'deploy', '_svc', 'a-b_c9', 'a'.repeat(32)])('accepts %j', (u) =>
    expect(assertSshUser(u)).toBe(u),
  );
  it.each(['Root', '9user', 'a'.repeat(33), 'user@host', 'us.er', '-oProxyCommand=x', ...hostile])(
    'refuses %j',
    (u) => refused(() => assertSshUser(u), 'sshUser'),
  );
});

describe('assertPort', () => {
  it.each([
    [1, 1],
    [22, 22],
    [65535, 65535],
    ['8080', 8080],
  ])('accepts %j', (p, n) => expect(assertPort(p)).toBe(n));
  it.each([0, -1, 65536, 1.5, Number.NaN, '0', '022', '22 ', '22;', '1e3', '', null, ...hostile])(
    'refuses %j',
    (p) => refused(() => assertPort(p, 'sshPort'), 'sshPort'),
  );
});

describe('assertEmail', () => {
  it.each(['ops@example.com', 'first.last+tag@sub.example.org', 'A_B%c@Example.COM'])(
    'accepts %j',
    (e) => expect(assertEmail(e)).toBe(e),
  );
  it.each([
    'ops',
    '@example.com',
    'ops@',
    'ops@localhost',
    '.ops@example.com',
    'ops.@example.com',
    'o..ps@example.com',
    '-ops@example.com',
    'ops@example.com\n',
    'o ps@example.com',
    '"ops"@example.com',
    'ops@example.com;id',
    'ops@[127.0.0.1]',
    `${'a'.repeat(65)}@example.com`,
    ...hostile.map((h) => `${h}@example.com`),
  ])('refuses %j', (e) => refused(() => assertEmail(e), 'email'));
});

describe('normalizeTarget', () => {
  it.each([
    ['198.18.0.5', { scheme: 'http', host: '198.18.0.5', path: '' }, 'http://198.18.0.5'],
    [
      '198.18.0.5:8080',
      { scheme: 'http', host: '198.18.0.5', port: 8080, path: '' },
      'http://198.18.0.5:8080',
    ],
    ['backend', { scheme: 'http', host: 'backend', path: '' }, 'http://backend'],
    [
      'App.Internal:3000',
      { scheme: 'http', host: 'app.internal', port: 3000, path: '' },
      'http://app.internal:3000',
    ],
    ['https://api.example.com', { scheme: 'https', host: 'api.example.com', path: '' }, null],
    ['HTTP://x.example/', { scheme: 'http', host: 'x.example', path: '' }, 'http://x.example'],
    [
      'http://10.0.0.2:9000/app',
      { scheme: 'http', host: '10.0.0.2', port: 9000, path: '/app/' },
      'http://10.0.0.2:9000/app/',
    ],
    [
      'https://h.example/a.b/c_d~e-f/',
      { scheme: 'https', host: 'h.example', path: '/a.b/c_d~e-f/' },
      null,
    ],
  ])('normalises %j', (input, expected, text) => {
    const t = normalizeTarget(input);
    expect(t).toEqual(expected);
    expect(formatTarget(t)).toBe(text ?? input);
    // Normal form is a fixed point.
    expect(normalizeTarget(formatTarget(t))).toEqual(t);
  });

  const bad = [
    'ftp://h.example',
    'file:///etc/passwd',
    'javascript://x',
    '//h.example',
    'http://',
    'http://:80',
    'http://h.example:',
    'http://h.example:0',
    'http://h.example:65536',
    'http://h.example:80:81',
    'http://user:pw@h.example',
    'http://h.example?x=1',
    'http://h.example/#x',
    'http://[::1]:80',
    'http://1.2.3.999',
    'http://-h.example',
    'http://h.example/a b',
    'http://h.example/a%2f',
    'http://h.example/../etc',
    'http://h.example/a/./b',
    'http://h.example//a',
    'http://h.example/a;b',
    'http://h.example/$host',
    ` http://h.example`,
    `http://${'a'.repeat(2050)}`,
    ...hostile,
    ...hostileTails.map((h) => `http://h.example/${h}`),
    ...hostile.map((h) => `http://${h}`),
    ...hostile.map((h) => `h.example:${h}`),
  ];
  it.each(bad)('refuses %j', (input) => {
    let error: unknown;
    try {
      normalizeTarget(input);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DeployValidationError);
    expect((error as DeployValidationError).field).toMatch(/^target(\.port|\.path)?$/);
    // The refused value is never echoed back (it may carry line breaks).
    if (input.length > 3) expect((error as Error).message).not.toContain(input);
  });

  it('assertTarget re-checks an object read back from storage', () => {
    expect(assertTarget({ scheme: 'http', host: 'h.example', port: 81, path: '/a/' })).toEqual({
      scheme: 'http',
      host: 'h.example',
      port: 81,
      path: '/a/',
    });
    refused(() => assertTarget({ scheme: 'http', host: 'h.example;', path: '' }), 'target');
    refused(() => assertTarget({ scheme: 'http', host: 'H.example', path: '' }), 'target');
    refused(() => assertTarget({ scheme: 'http', host: 'h.example', path: '/a' }), 'target');
    refused(
      () => assertTarget({ scheme: 'http', host: 'h.example', port: 1.5, path: '' }),
      'target.port',
    );
  });
});

describe('any input', () => {
  // Whatever comes in, what comes out is only made of characters inert in nginx and sh.
  const anyInput = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.string({ unit: fc.constantFrom(...'ab1.-:/_~;$`\'" {}\n\r@?#[]%'), maxLength: 40 }),
    fc.string({ unit: fc.constantFrom(...'ab1.-:/'), maxLength: 40 }).map((s) => `http://${s}`),
  );
  const outcome = (fn: () => string): string | DeployValidationError => {
    try {
      return fn();
    } catch (e) {
      if (e instanceof DeployValidationError) return e;
      throw e;
    }
  };

  it('normalizeTarget yields scheme://host[:port][/path] with inert characters, or refuses', () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        const r = outcome(() => formatTarget(normalizeTarget(input)));
        if (typeof r === 'string') {
          expect(r).toMatch(/^https?:\/\/[a-z0-9.-]+(:[1-9][0-9]*)?(\/[A-Za-z0-9._~/-]*\/)?$/);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('assertDomain yields lowercase LDH text, or refuses', () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        const r = outcome(() => assertDomain(input));
        if (typeof r === 'string') expect(r).toMatch(/^[a-z0-9.-]+$/);
      }),
      { numRuns: 2000 },
    );
  });
});
