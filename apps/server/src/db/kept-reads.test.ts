// The rules of a kept read, over a write count the test moves by hand: served again only while
// the count and the moment allow, never kept when a write ran while it was read.
import { describe, expect, it } from 'vitest';
import { keptReads } from './kept-reads';
import type { TWriteCount } from './write-count';

function counter() {
  let n = 0;
  const writes: TWriteCount = { current: () => n };
  return { writes, write: () => (n += 1) };
}

describe('a kept read', () => {
  const at = new Date('2026-12-07T10:00:00Z');
  const later = (ms: number) => new Date(at.getTime() + ms);

  it('is served again while no write started or ended and the moment is before its end', async () => {
    const { writes, write } = counter();
    const kept = keptReads<number>(writes, ['proxy_configurations']);
    let reads = 0;
    const read = async () => ({ value: ++reads, until: later(60_000) });
    expect(await kept.read('k', at, read)).toBe(1);
    expect(await kept.read('k', later(59_999), read)).toBe(1);
    expect(reads).toBe(1);
    // Its end: read again.
    expect(await kept.read('k', later(60_000), read)).toBe(2);
    // Before the moment it was read at: read again (it holds from then on only).
    expect(await kept.read('k', later(-1), read)).toBe(3);
    write();
    expect(await kept.read('k', later(-1), read)).toBe(4);
    expect(await kept.read('other', later(-1), read)).toBe(5);
    expect(await kept.read('k', later(-1), read)).toBe(4);
  });

  it('is not kept when a write started or ended while it was read', async () => {
    const { writes, write } = counter();
    const kept = keptReads<string>(writes, ['proxy_configurations']);
    let reads = 0;
    const racing = async () => {
      reads += 1;
      write();
      return { value: `read ${reads}`, until: null };
    };
    expect(await kept.read('k', at, racing)).toBe('read 1');
    expect(await kept.read('k', at, async () => ({ value: 'calm', until: null }))).toBe('calm');
    expect(await kept.read('k', at, racing)).toBe('calm');
    expect(reads).toBe(1);
  });

  it('keeps at most its number of values, the least used going first', async () => {
    const { writes } = counter();
    const kept = keptReads<string>(writes, ['proxy_configurations'], 2);
    const reads: string[] = [];
    const read = (key: string) => () => {
      reads.push(key);
      return Promise.resolve({ value: key, until: null });
    };
    await kept.read('a', at, read('a'));
    await kept.read('b', at, read('b'));
    await kept.read('a', at, read('a'));
    await kept.read('c', at, read('c'));
    await kept.read('a', at, read('a'));
    await kept.read('b', at, read('b'));
    expect(reads).toEqual(['a', 'b', 'c', 'b']);
  });
});
