import { describe, expect, it } from 'vitest';
import { isDomain, isIpv4, isManualDestination } from './rules';

describe('isIpv4', () => {
  it.each(['0.0.0.0', '255.255.255.255', '203.0.113.7'])('accepts %s', (v) => {
    expect(isIpv4(v)).toBe(true);
  });
  it.each(['256.0.0.1', '1.2.3', '1.2.3.4.5', '01234.1.1.1', ' 1.2.3.4', '1.2.3.4\n'])(
    'refuses %j',
    (v) => expect(isIpv4(v)).toBe(false),
  );
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
  ])('refuses %j', (v) => expect(isManualDestination(v)).toBe(false));
});
