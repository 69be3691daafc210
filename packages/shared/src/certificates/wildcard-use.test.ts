import { describe, expect, it } from 'vitest';
import { coveringWildcard, wildcardCovers } from './wildcard-use';

describe('which wildcard covers a name', () => {
  it('is the name without its first label, one label deep only', () => {
    expect(coveringWildcard('c.example.com')).toBe('*.example.com');
    expect(coveringWildcard('C.Example.COM')).toBe('*.example.com');
    expect(wildcardCovers('*.example.com', 'c.example.com')).toBe(true);
    expect(wildcardCovers('*.EXAMPLE.com', 'c.example.com')).toBe(true);
    expect(wildcardCovers('*.example.com', 'a.b.example.com')).toBe(false);
    expect(wildcardCovers('*.example.com', 'example.com')).toBe(false);
    expect(wildcardCovers('*.example.com', 'c.example.org')).toBe(false);
    expect(wildcardCovers('example.com', 'c.example.com')).toBe(false);
  });

  it('is none for a wildcard, a bare domain or a name right under a public suffix', () => {
    expect(coveringWildcard('*.example.com')).toBeUndefined();
    expect(coveringWildcard('example.com')).toBeUndefined();
    expect(coveringWildcard('example.co.uk')).toBeUndefined();
    expect(wildcardCovers('*.com', 'example.com')).toBe(false);
  });
});
