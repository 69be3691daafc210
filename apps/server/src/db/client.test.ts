import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { writeEmptyDump } from './pglite-dir';

describe('a new embedded data dir', () => {
  let dir: string;
  let dump: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portico-client-'));
    dump = join(dir, 'pgdata.tar.gz');
    await writeEmptyDump(dump);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // From source there is no dump (initdb runs in a child); the built server has one.
  it.each([
    ['by initdb in a child process', false],
    ['from the empty dump the build writes', true],
  ])(
    'is created %s, opens with the small buffer pool and keeps what it stores',
    async (_, withDump) => {
      const pgliteDir = join(dir, withDump ? 'from-dump' : 'from-initdb');
      const options = { pgliteDir, pgliteEmptyDump: withDump ? dump : join(dir, 'absent.tar.gz') };
      const first = await openDatabase(options);
      try {
        expect(existsSync(join(pgliteDir, 'PG_VERSION'))).toBe(true);
        const shown = await first.pglite!.query('show shared_buffers');
        expect(shown.rows).toEqual([{ shared_buffers: '16MB' }]);
        await first.pglite!.exec(
          "create table kept (v text); insert into kept values ('still here')",
        );
      } finally {
        await first.close();
      }
      // Opened again, the dir is not new: neither path runs, the data is there.
      const again = await openDatabase(options);
      try {
        expect((await again.pglite!.query('select v from kept')).rows).toEqual([
          { v: 'still here' },
        ]);
      } finally {
        await again.close();
      }
    },
    120_000,
  );
});
