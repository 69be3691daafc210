import type { TPublicUser, TRole } from '@portico/shared/auth/schemas';
import type { TUserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isoTime } from '../../lib/iso-time';
import { hashPassword, verifyDummy, verifyPassword } from '../../lib/passwords';
import { type TTwoFactorPolicy, twoFactorSetupPending } from './two-factor-policy';
import {
  type TUniqueViolation,
  type TUserChanges,
  type TUsersRepository,
  UniqueViolationError,
} from './users.repository';

export type TUsersService = ReturnType<typeof createUsersService>;

export interface TCreateUserInput {
  username: string;
  email: string;
  password: string;
  role: TRole;
}

const TAKEN: Record<TUniqueViolation, string> = {
  username: 'username_taken',
  email: 'email_taken',
};

/**
 * The response shape of a user: never the password hash nor anything of two-factor's secret.
 * `policy` is PORTICO_REQUIRE_2FA, to say whether the account must set two-factor up first.
 */
export function toPublicUser(row: TUserRow, policy: TTwoFactorPolicy = 'off'): TPublicUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    firstName: row.firstName,
    lastName: row.lastName,
    profileImageUrl: row.profileImageUrl,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
    twoFactorEnabled: row.totpEnabledAt !== null,
    twoFactorSetupRequired: twoFactorSetupPending(row, policy),
  };
}

export function createUsersService(repository: TUsersRepository) {
  async function requireByUsername(username: string): Promise<TUserRow> {
    const user = await repository.findByUsername(username);
    if (!user) throw new AppError('not_found', 404);
    return user;
  }

  /** The account a sign-in identifier names: an e-mail when it holds `@`, else a username. */
  const findByIdentifier = (identifier: string) =>
    identifier.includes('@')
      ? repository.findByEmail(identifier)
      : repository.findByUsername(identifier);

  return {
    findById: (id: string) => repository.findById(id),
    findByIdentifier,
    list: () => repository.list(),
    listAdmins: () => repository.listAdmins(),

    async create(input: TCreateUserInput): Promise<TUserRow> {
      // Checked first so a taken name costs no argon2 work; the unique index still decides races.
      if (await repository.findByUsername(input.username)) {
        throw new AppError('username_taken', 409);
      }
      if (await repository.findByEmail(input.email)) throw new AppError('email_taken', 409);
      const passwordHash = await hashPassword(input.password);
      try {
        return await repository.insert({
          username: input.username,
          email: input.email,
          passwordHash,
          role: input.role,
        });
      } catch (error) {
        if (error instanceof UniqueViolationError) throw new AppError(TAKEN[error.field], 409);
        throw error;
      }
    },

    /** The user whose username or e-mail (case-insensitive) and password match, else null. */
    async authenticate(identifier: string, password: string): Promise<TUserRow | null> {
      const user = await findByIdentifier(identifier);
      if (!user) {
        await verifyDummy(password);
        return null;
      }
      return (await verifyPassword(user.passwordHash, password)) ? user : null;
    },

    async setRole(username: string, role: TRole): Promise<TUserRow> {
      const user = await requireByUsername(username);
      return (await repository.update(user.id, { role }))!;
    },

    async resetPassword(username: string, password: string): Promise<TUserRow> {
      const user = await requireByUsername(username);
      return (await repository.update(user.id, { passwordHash: await hashPassword(password) }))!;
    },

    requireByUsername,

    /** Whether `password` is the account's current one (same argon2 check as signing in). */
    checkPassword: (user: TUserRow, password: string) =>
      verifyPassword(user.passwordHash, password),

    /** Any other change to the row (names, e-mail, two-factor columns); a taken e-mail is 409. */
    async update(id: string, changes: TUserChanges): Promise<TUserRow> {
      try {
        const row = await repository.update(id, changes);
        if (!row) throw new AppError('not_found', 404);
        return row;
      } catch (error) {
        if (error instanceof UniqueViolationError) throw new AppError(TAKEN[error.field], 409);
        throw error;
      }
    },

    claimTotpStep: (id: string, step: number) => repository.claimTotpStep(id, step),
  };
}
