import { describe, expect, it } from 'vitest';
import { sortByProxyCount } from './sort';

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
