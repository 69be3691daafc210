import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIGRATIONS_FOLDER } from '../../src/db/migrate';

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
