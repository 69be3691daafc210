import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { runTs } from '../../test/support/spawn';
import { batchedLogStream } from './log-stream';

const PROBE = 'test/support/log-stream-probe.ts';
const lines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe('the batched log stream (lib/log-stream.ts)', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  function streamToFile() {
    dir = mkdtempSync(join(tmpdir(), 'portico-log-stream-'));
    const file = join(dir, 'out.log');
    const fd = openSync(file, 'w');
    const stream = batchedLogStream(fd);
    return {
      log: pino({ base: null }, stream),
      stream,
      read: () => readFileSync(file, 'utf8'),
      close: () => closeSync(fd),
    };
  }

  it('holds short lines until a batch is full or flushed, then writes them in order', async () => {
    const out = streamToFile();
    try {
      for (let i = 0; i < 5; i++) out.log.info({ i }, 'short');
      await new Promise((r) => setTimeout(r, 50));
      expect(out.read()).toBe('');

      out.stream.flush();
      await expect.poll(() => lines(out.read()).length).toBe(5);

      // Four lines of over 1 kB fill a batch, which goes without a flush.
      const long = 'x'.repeat(1100);
      for (let i = 5; i < 9; i++) out.log.info({ i, long }, 'long');
      await expect.poll(() => lines(out.read()).length).toBe(9);
      expect(lines(out.read()).map((l) => l.i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    } finally {
      out.stream.stop();
      out.close();
    }
  });

  it('writes every waiting line before stop() returns', () => {
    const out = streamToFile();
    try {
      for (let i = 0; i < 3; i++) out.log.info({ i }, 'short');
      out.stream.stop();
      expect(lines(out.read()).map((l) => l.i)).toEqual([0, 1, 2]);
    } finally {
      out.close();
    }
  });

  it.each(['throw', 'exit', 'stop'])(
    'leaves no waiting line behind when the process ends (%s)',
    async (how) => {
      const result = await runTs(PROBE, [how]);
      expect(lines(result.stdout).map((l) => l.i)).toEqual([0, 1, 2]);
      if (how === 'throw') expect(result.stderr).toContain('the probe fails');
    },
  );
});
