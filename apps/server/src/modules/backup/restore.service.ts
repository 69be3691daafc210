import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, type TDatabase } from '../../db/client';
import { createPgliteDir, isNewPgliteDir } from '../../db/pglite-dir';
import {
  applyMigrationSteps,
  dropPorticoSchemas,
  holdsTables,
  quietAnswerVersions,
  resetSequences,
  rowInserter,
  shippedMigrations,
} from '../../db/table-copy';
import { backupRecords, type TBackupHeader, verifyBackupArchive } from '../../lib/backup-archive';
import { acquireDataDirLock } from '../../lib/data-dir-lock';
import { writeKeyFile, writePrivateFile } from '../../lib/secrets';

export type TRestoreProblem = 'newer_schema' | 'other_lineage' | 'not_empty';

export class RestoreRefusedError extends Error {
  constructor(
    readonly problem: TRestoreProblem,
    message: string,
  ) {
    super(message);
    this.name = 'RestoreRefusedError';
  }
}

export interface TRestoreTarget {
  dataDir: string;
  databaseUrl: string | undefined;
  secretKeyFile: string;
  /** The build's empty data dir dump (runtime.ts), for a new PGlite directory. */
  pgliteEmptyDump?: string;
}

export interface TRestoreOptions {
  replace?: boolean;
  passphrase?: string;
}

/** The archive may be restored by this build: not newer, and from the same line of migrations. */
function checkSchema(header: TBackupHeader): void {
  const shipped = shippedMigrations();
  const { migrations, lastHash } = header.schema;
  if (migrations > shipped.length) {
    throw new RestoreRefusedError(
      'newer_schema',
      `The backup was made by a newer Portico (schema ${migrations}; this one knows ${shipped.length}). Upgrade Portico first, then restore.`,
    );
  }
  if (migrations > 0 && shipped[migrations - 1]?.hash !== lastHash) {
    throw new RestoreRefusedError(
      'other_lineage',
      `The backup's schema ${migrations} is not this build's migration ${migrations}: it was made by a different Portico.`,
    );
  }
}

function stamp(): string {
  return new Date().toISOString().replaceAll(/[:.]/g, '-');
}

/**
 * Everything in one transaction: (with --replace, the old schemas dropped,) this build's
 * migrations up to the archive's, the rows, the sequences past them, the remaining migrations.
 * A failure anywhere leaves the database as it was.
 */
async function fillDatabase(
  database: TDatabase,
  file: string,
  header: TBackupHeader,
  options: TRestoreOptions,
): Promise<Record<string, number>> {
  const shipped = shippedMigrations();
  const counts: Record<string, number> = {};
  await database.db.transaction(async (tx) => {
    if (options.replace) await dropPorticoSchemas(tx);
    await applyMigrationSteps(tx, shipped.slice(0, header.schema.migrations));
    await quietAnswerVersions(tx);
    const insertRows = rowInserter(tx);
    for await (const record of backupRecords(file, options.passphrase)) {
      if (!('table' in record)) continue;
      counts[record.table] = (counts[record.table] ?? 0) + record.rows.length;
      await insertRows(
        record.table,
        record.rows.map((row) => JSON.stringify(row)),
      );
    }
    await resetSequences(tx);
    await applyMigrationSteps(tx, shipped.slice(header.schema.migrations));
  });
  return counts;
}

/** The key files the archive holds, written beside the data (an existing one kept aside with --replace). */
async function writeFiles(
  file: string,
  target: TRestoreTarget,
  options: TRestoreOptions,
  suffix: string,
): Promise<void> {
  const paths = {
    'secret.key': target.secretKeyFile,
    'session.secret': join(target.dataDir, 'session.secret'),
  };
  for await (const record of backupRecords(file, options.passphrase)) {
    if (!('file' in record)) continue;
    const path = paths[record.file];
    if (existsSync(path)) renameSync(path, `${path}.${suffix}`);
    const bytes = Buffer.from(record.base64, 'base64');
    if (record.file === 'secret.key') writeKeyFile(path, bytes);
    else writePrivateFile(path, bytes);
  }
}

export interface TRestoreResult {
  header: TBackupHeader;
  tables: Record<string, number>;
  /** What --replace moved aside (kept, not deleted). */
  keptAside: string[];
}

/**
 * Restores `file` into the store `target` names. The archive is checked whole first; an empty
 * target is required unless `replace`; nothing is written when any check fails. On PGlite the
 * database is built in `<dataDir>/db.restoring` and renamed into place at the end.
 */
export async function restoreBackup(
  file: string,
  target: TRestoreTarget,
  options: TRestoreOptions = {},
): Promise<TRestoreResult> {
  const header = await verifyBackupArchive(file, options.passphrase);
  checkSchema(header);
  const suffix = `before-restore-${stamp()}`;
  const keyFiles = [target.secretKeyFile, join(target.dataDir, 'session.secret')];
  const lock = target.databaseUrl ? null : acquireDataDirLock(target.dataDir);
  try {
    const dbDir = join(target.dataDir, 'db');
    const keysPresent = keyFiles.filter((path) => existsSync(path));
    if (target.databaseUrl) {
      const database = await openDatabase({ databaseUrl: target.databaseUrl, poolSize: 2 });
      try {
        if (!options.replace && (await holdsTables(database.db))) {
          throw new RestoreRefusedError(
            'not_empty',
            'The database already holds Portico tables: restore into an empty database, or add --replace to overwrite it (stop every Portico instance first).',
          );
        }
        refuseKeys(keysPresent, options);
        const tables = await fillDatabase(database, file, header, options);
        await writeFiles(file, target, options, suffix);
        return { header, tables, keptAside: keysPresent.map((p) => `${p}.${suffix}`) };
      } finally {
        await database.close();
      }
    }
    if (!options.replace && !isNewPgliteDir(dbDir)) {
      throw new RestoreRefusedError(
        'not_empty',
        `${target.dataDir} already holds a Portico database: restore into an empty data directory, or add --replace to overwrite it (stop Portico first).`,
      );
    }
    refuseKeys(keysPresent, options);
    const building = join(target.dataDir, 'db.restoring');
    rmSync(building, { recursive: true, force: true });
    try {
      await createPgliteDir(building, target.pgliteEmptyDump);
      const database = await openDatabase({ pgliteDir: building });
      let tables: Record<string, number>;
      try {
        tables = await fillDatabase(database, file, header, { ...options, replace: false });
      } finally {
        await database.close();
      }
      const keptAside = keysPresent.map((p) => `${p}.${suffix}`);
      if (existsSync(dbDir)) {
        renameSync(dbDir, `${dbDir}.${suffix}`);
        keptAside.push(`${dbDir}.${suffix}`);
      }
      await writeFiles(file, target, options, suffix);
      renameSync(building, dbDir);
      return { header, tables, keptAside };
    } finally {
      rmSync(building, { recursive: true, force: true });
    }
  } finally {
    lock?.release();
  }
}

function refuseKeys(present: string[], options: TRestoreOptions): void {
  if (present.length > 0 && !options.replace) {
    throw new RestoreRefusedError(
      'not_empty',
      `${present.join(' and ')} already exist: restore into an empty data directory, or add --replace (the files are kept aside, renamed).`,
    );
  }
}
