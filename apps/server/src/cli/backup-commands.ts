import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../config';
import { BackupArchiveError, type TBackupHeader } from '../lib/backup-archive';
import { writeBackup } from '../modules/backup/backup.service';
import { RestoreRefusedError, restoreBackup } from '../modules/backup/restore.service';
import { EMPTY_DUMP, type TOpenedStore } from '../runtime';
import { CliError } from './user-commands';

type TOpenStore = () => Promise<TOpenedStore>;

/** The passphrase: the file's first line. Never an argument (arguments show in `ps`). */
function readPassphrase(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(
      `cannot read the passphrase file ${path} (${(error as NodeJS.ErrnoException).code}).`,
    );
  }
  const passphrase = text.split(/\r?\n/, 1)[0] ?? '';
  if (passphrase.length < 8) {
    throw new CliError(`the passphrase in ${path} is shorter than 8 characters.`);
  }
  return passphrase;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function describe(header: TBackupHeader): string {
  const rows = Object.values(header.tables).reduce((a, b) => a + b, 0);
  return `${Object.keys(header.tables).length} tables, ${rows} rows, schema ${header.schema.migrations}`;
}

/** Known refusals become one readable line; anything else stays an error with its stack. */
function refusal(error: unknown): never {
  if (error instanceof BackupArchiveError || error instanceof RestoreRefusedError) {
    throw new CliError(`${error.message} Nothing was restored.`);
  }
  throw error;
}

export function registerBackupCommands(program: Command, open: TOpenStore) {
  program
    .command('backup')
    .description('write one archive of every table and the secret key (docs/OPERATIONS.md)')
    .requiredOption('--out <file>', 'the archive to write')
    .option('--passphrase-file <file>', 'encrypt the archive with the first line of this file')
    .action(async (options: { out: string; passphraseFile?: string }) => {
      const passphrase = readPassphrase(options.passphraseFile);
      const config = loadConfig();
      const out = resolve(options.out);
      const store = await open();
      try {
        const { header, bytes } = await writeBackup(
          store.database,
          {
            secretKeyFile: config.secretKeyFile,
            sessionSecretFile: join(config.dataDir, 'session.secret'),
          },
          out,
          passphrase,
        );
        const keyNote = header.encryption
          ? 'encrypted with the passphrase'
          : 'NOT encrypted: it holds the secret key beside the data, keep it as safe as the data dir';
        console.info(`wrote ${out} (${formatBytes(bytes)}): ${describe(header)}; ${keyNote}.`);
      } finally {
        await store.close();
      }
    });

  program
    .command('restore <file>')
    .description('restore an archive into an empty data dir or database; stop Portico first')
    .option(
      '--replace',
      'overwrite a store that holds data (the old key files and data dir are kept aside)',
    )
    .option(
      '--passphrase-file <file>',
      'the passphrase of an encrypted archive, first line of this file',
    )
    .action(async (file: string, options: { replace?: boolean; passphraseFile?: string }) => {
      const passphrase = readPassphrase(options.passphraseFile);
      const config = loadConfig();
      const result = await restoreBackup(
        resolve(file),
        {
          dataDir: config.dataDir,
          databaseUrl: config.databaseUrl,
          secretKeyFile: config.secretKeyFile,
          pgliteEmptyDump: EMPTY_DUMP,
        },
        { replace: options.replace === true, passphrase },
      ).catch(refusal);
      const where = config.databaseUrl ? 'the database of DATABASE_URL' : config.dataDir;
      console.info(`restored ${describe(result.header)} into ${where}.`);
      for (const path of result.keptAside) console.info(`kept aside: ${path}`);
    });
}
