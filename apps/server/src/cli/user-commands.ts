import { ZEmail, ZNewPassword, ZUsername } from '@portico/shared/auth/schemas';
import { translate } from '@portico/shared/i18n/translate';
import type { Command } from 'commander';
import type { z } from 'zod';
import { loadConfig } from '../config';
import { AppError } from '../lib/app-error';
import { secretBoxLoader } from '../lib/secrets';
import { accountTransaction, type TAccountTransaction } from '../modules/account/account-writes';
import { createSessionEnds } from '../modules/sessions/session-ends';
import { createSessionsRepository } from '../modules/sessions/sessions.repository';
import { createAccountSessions } from '../modules/sessions/sessions.service';
import { createRecoveryCodesRepository } from '../modules/two-factor/recovery-codes.repository';
import { createTwoFactorService } from '../modules/two-factor/two-factor.service';
import { createUsersRepository } from '../modules/users/users.repository';
import { createUsersService, type TUsersService } from '../modules/users/users.service';
import type { TOpenedStore } from '../runtime';
import { readPassword } from './read-password';

export class CliError extends Error {}

const LANG = (process.env.LC_ALL || process.env.LANG || '').toLowerCase().startsWith('es')
  ? 'es'
  : 'en';

function parse<T>(schema: z.ZodType<T>, value: unknown, label: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new CliError(`${label}: ${translate(LANG, result.error.issues[0]?.message ?? '')}`);
}

/** Runs one command against the store, turning known failures into one readable line. */
type TOpenStore = () => Promise<TOpenedStore>;

async function withUsers(
  open: TOpenStore,
  run: (
    users: TUsersService,
    database: TOpenedStore['database'],
    transaction: TAccountTransaction,
  ) => Promise<void>,
) {
  const store = await open();
  try {
    const repository = createUsersRepository(store.database.db);
    await run(
      createUsersService(repository),
      store.database,
      accountTransaction(store.database.db, repository),
    );
  } catch (error) {
    if (error instanceof AppError) {
      throw new CliError(translate(LANG, error.messageKey, error.params));
    }
    throw error;
  } finally {
    await store.close();
  }
}

export function registerUserCommands(program: Command, open: TOpenStore) {
  const user = program.command('user').description('manage accounts and administrators');

  user
    .command('create')
    .description('create an account; the password is read from stdin')
    .argument('<name>', 'username')
    .requiredOption('--email <email>', 'e-mail address')
    .option('--admin', 'make the account an administrator', false)
    .action(async (name: string, opts: { email: string; admin: boolean }) => {
      const username = parse(ZUsername, name, 'username');
      const email = parse(ZEmail, opts.email, 'email');
      const password = parse(ZNewPassword, await readPassword(), 'password');
      await withUsers(open, async (users) => {
        const role = opts.admin ? 'admin' : 'user';
        const row = await users.create({ username, email, password, role });
        console.info(`created ${row.role} ${row.username} <${row.email}>`);
      });
    });

  for (const [command, role, verb] of [
    ['promote', 'admin', 'is now an administrator'],
    ['demote', 'user', 'is no longer an administrator'],
  ] as const) {
    user
      .command(command)
      .description(role === 'admin' ? 'make an account administrator' : 'remove administrator')
      .argument('<name>', 'username')
      .action(async (name: string) => {
        await withUsers(open, async (users) => {
          const row = await users.setRole(name, role);
          console.info(`${row.username} ${verb}`);
        });
      });
  }

  user
    .command('reset-password')
    .description("set an account's password; the new password is read from stdin")
    .argument('<name>', 'username')
    .action(async (name: string) => {
      const password = parse(ZNewPassword, await readPassword(), 'password');
      await withUsers(open, async (users, database) => {
        const row = await users.resetPassword(name, password);
        // Whoever signed in with the old password is signed out too.
        const ended = await createSessionsRepository(database.db).removeForUser(row.id);
        console.info(`password of ${row.username} changed; ${ended} session(s) signed out`);
      });
    });

  user
    .command('reset-2fa')
    .description(
      "turn off an account's two-factor sign-in (lost authenticator and recovery codes); " +
        'its sessions are signed out',
    )
    .argument('<name>', 'username')
    .action(async (name: string) => {
      const { secretKeyFile, require2fa } = loadConfig();
      await withUsers(open, async (users, database, transaction) => {
        const twoFactor = createTwoFactorService({
          users,
          recoveryCodes: createRecoveryCodesRepository(database.db),
          transaction,
          // Only `reset` is used here, which ends every session itself.
          sessions: createAccountSessions({
            repository: createSessionsRepository(database.db),
            transaction,
            sessionEnds: createSessionEnds(),
          }),
          secretBox: secretBoxLoader(secretKeyFile),
          policy: require2fa,
        });
        // Whoever is signed in now got past two-factor; the owner signs in again and sets it up.
        const { user: row, wasOn, endedSessions: ended } = await twoFactor.reset(name);
        const state = wasOn ? 'turned off' : 'was not on (any unfinished setup was discarded)';
        const next =
          require2fa === 'all' || (require2fa === 'admins' && row.role === 'admin')
            ? ' PORTICO_REQUIRE_2FA asks them to set it up again at their next sign-in.'
            : '';
        console.info(
          `two-factor sign-in of ${row.username} ${state}; ${ended} session(s) signed out.${next}`,
        );
      });
    });

  user
    .command('list')
    .description('list every account')
    .action(async () => {
      await withUsers(open, async (users) => {
        const rows = await users.list();
        const table = rows.map((r) => [r.username, r.email, r.role, r.createdAt.toISOString()]);
        const header = ['USERNAME', 'EMAIL', 'ROLE', 'CREATED'];
        const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
        for (const row of [header, ...table]) {
          console.info(
            row
              .map((cell, i) => cell.padEnd(widths[i]!))
              .join('  ')
              .trimEnd(),
          );
        }
      });
    });
}
