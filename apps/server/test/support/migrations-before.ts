import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { TDatabase } from '../../src/db/client';
import { MIGRATIONS_FOLDER, runMigrations } from '../../src/db/migrate';
import { createTestDatabase, type TDatabaseKind, type TTestDatabase } from './test-database';

/**
 * The migrations folder as it was before migration `first` (a copy with a shorter journal), to
 * put a database in the state an older release left it in. The caller removes the directory.
 */
export function migrationsBefore(first: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'portico-migrations-'));
  cpSync(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8'));
  journal.entries = journal.entries.filter((e: { idx: number }) => e.idx < first);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

/**
 * For a describe block of a migration's test: a new database of `kind` migrated up to the one
 * before `first` (as an older release left it) before the cases, dropped after them. The cases
 * add the rows that release would have, then run the remaining migrations themselves.
 */
export function databaseBeforeMigration(
  kind: TDatabaseKind,
  first: number,
): { readonly database: TDatabase } {
  let test: TTestDatabase | undefined;
  let older: string | undefined;
  beforeAll(async () => {
    test = await createTestDatabase(kind, { migrated: false });
    older = migrationsBefore(first);
    await runMigrations(test.database, older);
  });
  afterAll(async () => {
    await test?.drop();
    if (older) rmSync(older, { recursive: true, force: true });
  });
  return {
    get database() {
      if (!test) throw new Error('the database is made in beforeAll');
      return test.database;
    },
  };
}
