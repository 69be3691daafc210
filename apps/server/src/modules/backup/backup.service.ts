import { existsSync, readFileSync, statSync } from 'node:fs';
import type { TDatabase } from '../../db/client';
import { migrationState, publicTables, tablePages } from '../../db/table-copy';
import {
  type TBackupHeader,
  type TBackupRecord,
  writeBackupArchive,
} from '../../lib/backup-archive';

export interface TBackupFiles {
  secretKeyFile: string;
  /** `<dataDir>/session.secret`; absent (PORTICO_SESSION_SECRET set) it is not in the archive. */
  sessionSecretFile: string;
}

export interface TBackupResult {
  header: TBackupHeader;
  bytes: number;
}

/**
 * Writes one archive of everything Portico keeps: every table's rows, read in one read-only
 * REPEATABLE READ transaction (one snapshot, while the app goes on writing on PostgreSQL; on
 * PGlite the transaction holds the one session, so the app's queries wait for it), and the key
 * files, so the archive restores on its own. With `passphrase` the archive is encrypted.
 */
export async function writeBackup(
  database: TDatabase,
  files: TBackupFiles,
  out: string,
  passphrase?: string,
): Promise<TBackupResult> {
  const header = await database.db.transaction(
    async (tx) => {
      const schema = await migrationState(tx);
      const tables = await publicTables(tx);
      async function* records(): AsyncGenerator<TBackupRecord> {
        // A store that never sealed a secret may have no key yet; then none is kept.
        for (const [name, path] of [
          ['secret.key', files.secretKeyFile],
          ['session.secret', files.sessionSecretFile],
        ] as const) {
          if (existsSync(path)) yield { file: name, base64: readFileSync(path).toString('base64') };
        }
        for (const table of tables) {
          yield { table, rows: [] };
          for await (const page of tablePages(tx, table)) {
            yield { table, rows: page.map((row) => JSON.parse(row) as unknown) };
          }
        }
      }
      return writeBackupArchive(
        out,
        { createdAt: new Date().toISOString(), database: database.kind, schema },
        records(),
        passphrase,
      );
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  return { header, bytes: statSync(out).size };
}
