import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TDatabaseKind, type TTestDatabase } from './test-database';

/**
 * The environment a Portico process (the real CLI, or withAppOnStore) opens its store with: a
 * data dir of its own, and on PostgreSQL a fresh database in DATABASE_URL (set before the
 * file's tests run). Both are removed after them.
 */
export function useCliStore(kind: TDatabaseKind, prefix: string): NodeJS.ProcessEnv {
  const dataDir = mkdtempSync(join(tmpdir(), `portico-${prefix}-`));
  const env: NodeJS.ProcessEnv = { PORTICO_DATA_DIR: dataDir, LANG: 'C' };
  let pg: TTestDatabase | undefined;
  beforeAll(async () => {
    if (kind !== 'postgres') return;
    pg = await createTestDatabase('postgres');
    env.DATABASE_URL = pg.url;
  });
  afterAll(async () => {
    await pg?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return env;
}
