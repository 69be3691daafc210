import { describe, expect, it } from 'vitest';
import { httpUrlOrUndefined } from './safe-url';

describe('httpUrlOrUndefined', () => {
  it('keeps absolute http and https URLs', () => {
    expect(httpUrlOrUndefined('https://cdn.example.com/a.png')).toBe(
      'https://cdn.example.com/a.png',
    );
    expect(httpUrlOrUndefined('http://example.com')).toBe('http://example.com/');
  });

  it.each([
    'javascript:alert(1)',
    ' java\tscript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'data:image/svg+xml,<svg onload=alert(1)>',
    'vbscript:x',
    '//evil.example/a.png',
    '/relative.png',
    'not a url',
    '',
    null,
    undefined,
  ])('drops %s', (value) => {
    expect(httpUrlOrUndefined(value)).toBeUndefined();
  });
});
