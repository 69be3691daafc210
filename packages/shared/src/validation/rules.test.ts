import { describe, expect, it } from 'vitest';
import {
  hasControlCharacter,
  isDomain,
  isIpv4,
  isIpv4WithLeadingZero,
  isManualDestination,
  trimSpaces,
} from './rules';

describe('isIpv4', () => {
  it.each(['0.0.0.0', '255.255.255.255', '203.0.113.7', '198.18.7.11', '10.0.100.200'])(
    'accepts %s',
    (v) => {
      expect(isIpv4(v)).toBe(true);
    },
  );
  it.each(['256.0.0.1', '1.2.3', '1.2.3.4.5', '01234.1.1.1', ' 1.2.3.4', '1.2.3.4\n'])(
    'refuses %j',
    (v) => expect(isIpv4(v)).toBe(false),
  );
  // The C library reads these as octal: 198.022.07.013 is 198.18.7.11.
  it.each(['198.022.07.013', '198.18.07.11', '198.18.007.11', '010.0.0.1', '1.2.3.00'])(
    'refuses %s, which has a leading zero',
    (v) => {
      expect(isIpv4(v)).toBe(false);
      expect(isIpv4WithLeadingZero(v)).toBe(true);
    },
  );
  it.each(['198.18.7.11', '0.0.0.0', '1.2.3', '256.01.1.1', 'a.b.c.d'])(
    'does not call %s an address with a leading zero',
    (v) => expect(isIpv4WithLeadingZero(v)).toBe(false),
  );
});

describe('hasControlCharacter', () => {
  const controls = [
    ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)),
    '\u007F',
    ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(0x80 + i)),
    '\u2028',
    '\u2029',
  ];
  it('finds every C0, DEL, C1 and line or paragraph separator, anywhere in a value', () => {
    for (const c of controls) {
      for (const v of [c, `a${c}`, `${c}a`, `a${c}b`]) expect(hasControlCharacter(v), v).toBe(true);
    }
  });
  it.each(['example.com', 'a b', 'pässwörd', '\u00A0', '\u200B', '\uD83D\uDE00', ''])(
    'finds none in %j',
    (v) => expect(hasControlCharacter(v)).toBe(false),
  );
});

describe('trimSpaces', () => {
  it('removes plain spaces at both ends and nothing else', () => {
    expect(trimSpaces('  a b  ')).toBe('a b');
    expect(trimSpaces('\ta\n')).toBe('\ta\n');
    expect(trimSpaces('\u00A0a\u00A0')).toBe('\u00A0a\u00A0');
  });
});

describe('isDomain', () => {
  it.each(['example.com', 'a-b.example.co', `${'a'.repeat(63)}.com`])('accepts %s', (v) => {
    expect(isDomain(v)).toBe(true);
  });
  it.each([
    'example',
    '-a.com',
    'a-.com',
    `${'a'.repeat(64)}.com`,
    'a..com',
    'a.com;',
    'a.com\nb',
    'a b.com',
    '$(id).com',
  ])('refuses %j', (v) => expect(isDomain(v)).toBe(false));
});

describe('isManualDestination', () => {
  it.each([
    '10.0.0.5',
    ' 10.0.0.5 ',
    'app.internal',
    'app.internal:8080',
    'localhost:3000',
    'http://10.0.0.5:8080',
    'https://api.example.com/v1',
  ])('accepts %s', (v) => expect(isManualDestination(v)).toBe(true));
  it.each([
    '',
    'ftp://x.com',
    'http://bad host',
    'host:99999',
    'a.com; return 200',
    'a.com`id`',
    '300.1.1.1',
    'http://',
    '10.0.0.5\u00A0',
    '\t10.0.0.5',
    '010.0.0.5',
  ])('refuses %j', (v) => expect(isManualDestination(v)).toBe(false));
});
