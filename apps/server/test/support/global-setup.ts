import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client';
import { MIGRATIONS_FOLDER, runMigrations } from '../../src/db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(MIGRATIONS_FOLDER)
    .filter((n) => n.endsWith('.sql'))
    .sort()) {
    hash.update(name).update(readFileSync(join(MIGRATIONS_FOLDER, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Creating a PGlite and migrating it takes ~3 s; restoring a dump takes ~0.5 s. The migrated
 * template is dumped once (cached by the migrations' content) and every test file restores it.
 */
export default async function setup(project: TestProject) {
  const file = join(tmpdir(), `portico-pglite-template-${migrationsHash()}.tar.gz`);
  if (!existsSync(file)) {
    const database = await openDatabase({ pgliteDir: 'memory://' });
    await runMigrations(database);
    const dump = await database.pglite!.dumpDataDir('gzip');
    await database.close();
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  }
  project.provide('pgliteTemplate', file);
}
