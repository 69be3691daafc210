import type { TUserRow } from '../../db/schema';

/** PORTICO_REQUIRE_2FA: whose accounts must have two-factor sign-in on. */
export type TTwoFactorPolicy = 'off' | 'admins' | 'all';

export function twoFactorRequired(user: Pick<TUserRow, 'role'>, policy: TTwoFactorPolicy): boolean {
  return policy === 'all' || (policy === 'admins' && user.role === 'admin');
}

/** Required and not on yet: until it is set up, the account can do nothing else. */
export function twoFactorSetupPending(
  user: Pick<TUserRow, 'role' | 'totpEnabledAt'>,
  policy: TTwoFactorPolicy,
): boolean {
  return twoFactorRequired(user, policy) && user.totpEnabledAt === null;
}
