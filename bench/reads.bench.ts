import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../apps/server/src/db/client';
import { readsBenchmark } from './lib/reads';

/** The reads on the embedded default: PGlite in a fresh data dir. */
export const benchmark = readsBenchmark({
  label: 'PGlite',
  async prepare() {
    const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-reads-'));
    return {
      env: { PORTICO_DATA_DIR: dataDir, DATABASE_URL: '' },
      open: () => openDatabase({ pgliteDir: join(dataDir, 'db') }),
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  },
});
