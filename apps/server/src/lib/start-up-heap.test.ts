import { describe, expect, it } from 'vitest';
import { runProcess, SERVER_ROOT } from '../../test/support/spawn';

const PROBE = 'test/support/start-up-heap-probe.ts';

async function probe(nodeFlags: string[] = []) {
  const result = await runProcess(process.execPath, [...nodeFlags, '--import', 'tsx', PROBE], {
    cwd: SERVER_ROOT,
  });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { before: number; duringStart: number; afterStart: number };
}

describe('the young generation during the start (lib/start-up-heap.ts)', () => {
  it('does not grow while the start allocates, and grows again once it has ended', async () => {
    const sizes = await probe();
    expect(sizes.duringStart).toBe(sizes.before);
    expect(sizes.afterStart).toBeGreaterThan(sizes.duringStart);
  });

  it("leaves an operator's own growth flag alone", async () => {
    const sizes = await probe(['--semi-space-growth-factor=2']);
    expect(sizes.duringStart).toBeGreaterThan(sizes.before);
  });
});
