import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { postgresAdminQuery } from '../../../../testbed/src/postgres-admin';
import { openDatabase } from '../../src/db/client';
import { MIGRATIONS_FOLDER, runMigrations } from '../../src/db/migrate';

/** The migrations' names and contents and their journal: a template is remade when they change. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  const names = readdirSync(MIGRATIONS_FOLDER).filter((n) => n.endsWith('.sql'));
  for (const name of [...names.sort(), join('meta', '_journal.json')]) {
    hash.update(name).update(readFileSync(join(MIGRATIONS_FOLDER, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * PGlite's data dir after initdb (`empty`) and after every migration (`migrated`), dumped once per
 * set of migrations as uncompressed tars: restoring one takes ~0.6 s of CPU where initdb takes
 * ~2.5 s (and the migrations ~0.4 s more), and a gzipped dump ~0.3 s more to unpack.
 */
export async function pgliteTemplates(): Promise<{ empty: string; migrated: string }> {
  const base = join(tmpdir(), `portico-pglite-template-${migrationsHash()}`);
  const empty = `${base}-empty.tar`;
  const migrated = `${base}.tar`;
  if (!existsSync(empty) || !existsSync(migrated)) {
    const database = await openDatabase({ pgliteDir: 'memory://' });
    try {
      await writeDump(empty, database);
      await runMigrations(database);
      await writeDump(migrated, database);
    } finally {
      await database.close();
    }
  }
  return { empty, migrated };
}

async function writeDump(file: string, database: Awaited<ReturnType<typeof openDatabase>>) {
  const dump = await database.pglite!.dumpDataDir('none');
  // Written aside then renamed: test runs in other checkouts may read the same file meanwhile.
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, file);
}

/** A PGlite template as the Blob `openDatabase` restores (an uncompressed tar). */
export function pgliteTemplateBlob(file: string): Blob {
  return new Blob([readFileSync(file)], { type: 'application/x-tar' });
}

let made: Promise<string> | undefined;

/**
 * The name of a database on TEST_DATABASE_URL's PostgreSQL with every migration applied, made
 * once per set of migrations and kept (for the next run and other checkouts on the same server):
 * `create database … template` copies it, where each file's database ran every migration itself.
 * Nobody connects to it once made (PostgreSQL copies only a database nobody is connected to). Two
 * runs making it at once each build their own under a scratch name and rename it; the loser drops
 * its copy.
 */
export function postgresTemplate(): Promise<string> {
  made ??= makePostgresTemplate();
  return made;
}

async function makePostgresTemplate(): Promise<string> {
  const name = `portico_template_${migrationsHash()}`;
  if (await databaseExists(name)) return name;
  const scratch = `${name}_${randomBytes(4).toString('hex')}`;
  await postgresAdminQuery(`create database ${scratch}`);
  try {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${scratch}`;
    const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
    try {
      await runMigrations(database);
    } finally {
      await database.close();
    }
    await postgresAdminQuery(`alter database ${scratch} rename to ${name}`);
  } catch (error) {
    await postgresAdminQuery(`drop database if exists ${scratch} with (force)`);
    if (!(await databaseExists(name))) throw error;
  }
  return name;
}

async function databaseExists(name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    const result = await client.query('select 1 from pg_database where datname = $1', [name]);
    return result.rowCount === 1;
  } finally {
    await client.end();
  }
}
