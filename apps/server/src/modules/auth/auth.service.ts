import type { TLoginInput, TRegisterInput } from '@portico/shared/auth/schemas';
import type { TUserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { TUsersService } from '../users/users.service';

export type TAuthService = ReturnType<typeof createAuthService>;

export interface TAuthServiceOptions {
  registration: 'open' | 'closed';
}

export function createAuthService(users: TUsersService, options: TAuthServiceOptions) {
  return {
    registration: options.registration,

    /** Nobody becomes admin by registering: the role is always `user` here. */
    async register(input: TRegisterInput): Promise<TUserRow> {
      if (options.registration === 'closed') throw new AppError('registration_closed', 403);
      return users.create({ ...input, role: 'user' });
    },

    /** Unknown account and wrong password fail alike (same code, same argon2 cost). */
    async login(input: TLoginInput): Promise<TUserRow> {
      const user = await users.authenticate(input.identifier, input.password);
      if (!user) throw new AppError('invalid_credentials', 401);
      return user;
    },

    /**
     * What the sign-in limit counts an attempt against: the account the identifier names, by
     * whichever spelling (username or e-mail, any case), so both share one budget; an unknown
     * identifier by itself, trimmed and in lower case. Either way one lookup, as the sign-in's.
     */
    async limitKey(identifier: string): Promise<string> {
      const user = await users.findByIdentifier(identifier);
      return user ? `account:${user.id}` : `name:${identifier.trim().toLowerCase()}`;
    },

    /** The signed-in user, or null when the session has none or the account is gone. */
    async currentUser(userId: string | undefined): Promise<TUserRow | null> {
      if (!userId) return null;
      return (await users.findById(userId)) ?? null;
    },
  };
}
