import { describe, expect, it } from 'vitest';
import { builtOnce } from './built-once';

describe('builtOnce', () => {
  it('builds nothing until asked, then once, and gives the same value every time', () => {
    let builds = 0;
    const query = builtOnce(() => {
      builds += 1;
      return { name: 'proxy_by_id' };
    });
    expect(builds).toBe(0);
    const first = query();
    expect(query()).toBe(first);
    expect(builds).toBe(1);
  });
});
