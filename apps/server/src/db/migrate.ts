import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { TDatabase } from './client';

// Beside this file in the source tree (src/db/migrations); the build copies the folder next to
// the bundle (dist/migrations), where this same expression lands once bundled.
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

// Any fixed number: instances starting together on one PostgreSQL migrate one at a time.
const MIGRATION_LOCK = 0x706f7274;

/** Applies the migrations not applied yet (`folder`: tests hand in an older set first). */
export async function runMigrations(
  database: TDatabase,
  folder: string = MIGRATIONS_FOLDER,
): Promise<void> {
  if (database.kind === 'pglite') {
    // Loaded here only: an instance on PostgreSQL never loads PGlite (scripts/check-imports.ts).
    const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder: folder });
    return;
  }
  const client = await database.pool!.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg(client), { migrationsFolder: folder });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
}

function expectedMigrationCount(): number {
  const journal = JSON.parse(
    readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
  );
  return (journal.entries as unknown[]).length;
}

/** True when every migration shipped with this build has been applied. */
export async function migrationsApplied(database: TDatabase): Promise<boolean> {
  try {
    const result = await database.db.execute(
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    );
    const rows = (result as unknown as { rows: { n: number }[] }).rows;
    return (rows[0]?.n ?? 0) >= expectedMigrationCount();
  } catch {
    return false;
  }
}
