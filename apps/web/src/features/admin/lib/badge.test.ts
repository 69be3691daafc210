import { describe, expect, it } from 'vitest';
import { adminBadgeVariant, sortByProxyCount } from './badge';

describe('admin badge colours (spec §4)', () => {
  it('green for completed or deployed', () => {
    expect(adminBadgeVariant('completed')).toBe('success');
    expect(adminBadgeVariant('deployed')).toBe('success');
  });
  it('yellow for pending or deploying', () => {
    expect(adminBadgeVariant('pending')).toBe('warning');
    expect(adminBadgeVariant('deploying')).toBe('warning');
  });
  it('destructive for failed or error', () => {
    expect(adminBadgeVariant('failed')).toBe('destructive');
    expect(adminBadgeVariant('error')).toBe('destructive');
  });
  it('outline otherwise', () => {
    expect(adminBadgeVariant('dns-validated')).toBe('outline');
    expect(adminBadgeVariant('something-new')).toBe('outline');
  });
});

describe('proxies by user order', () => {
  it('most proxies first, ties by username', () => {
    const rows = [
      { username: 'carol', proxyCount: 1 },
      { username: 'bob', proxyCount: 3 },
      { username: 'alice', proxyCount: 1 },
    ];
    expect(sortByProxyCount(rows).map((r) => r.username)).toEqual(['bob', 'alice', 'carol']);
    expect(rows[0]?.username).toBe('carol');
  });
});
