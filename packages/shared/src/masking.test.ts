import { describe, expect, it } from 'vitest';
import { maskHost, maskPort } from './masking';

describe('maskHost', () => {
  it.each([
    ['192.168.1.20', '192.***.***.20'],
    ['example.com', 'exa***.com'],
    ['abc.com', 'abc.com'],
    ['app.eu.example.com', 'app.***.*******.com'],
  ])('%s → %s', (host, masked) => expect(maskHost(host)).toBe(masked));
  it('masks a port with at least four asterisks', () => {
    expect(maskPort(22)).toBe('****');
    expect(maskPort(65535)).toBe('*****');
  });
});
