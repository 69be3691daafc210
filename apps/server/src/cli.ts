// First: sets how V8 compiles PGlite's WebAssembly before anything loads it.
import './lib/wasm-flags';
import { Command } from 'commander';
import { registerBackupCommands } from './cli/backup-commands';
import { registerSecretCommands } from './cli/secret-commands';
import { CliError, registerUserCommands } from './cli/user-commands';
import { ConfigError, loadConfig } from './config';
import { DataDirLockedError } from './lib/data-dir-lock';
import { openStore } from './runtime';

const program = new Command()
  .name('portico')
  .description(
    'Portico administration. Reads the same environment as the server (PORTICO_DATA_DIR, DATABASE_URL).',
  )
  .showHelpAfterError();

async function openCliStore() {
  const config = loadConfig();
  try {
    return await openStore(config);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      throw new CliError(
        `The Portico server (pid ${error.pid}) is running on ${config.dataDir}. ` +
          'The embedded database allows one process at a time: stop the server, run this ' +
          'command, then start the server again. (On PostgreSQL, with DATABASE_URL, the CLI ' +
          'works while the server runs.)',
      );
    }
    throw error;
  }
}

registerUserCommands(program, openCliStore);
registerSecretCommands(program, openCliStore);
registerBackupCommands(program, openCliStore);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CliError || error instanceof ConfigError) {
    console.error(`portico: ${error.message}`);
  } else {
    console.error('portico:', error);
  }
  process.exitCode = 1;
}
