import type { FastifyRequest } from 'fastify';
import type { TUserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { type TTwoFactorPolicy, twoFactorSetupPending } from '../users/two-factor-policy';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Open to an account that PORTICO_REQUIRE_2FA holds until it sets two-factor up: who am I,
     * and the setup itself. Every other route that needs a user answers 403 for it.
     */
    beforeTwoFactorSetup?: boolean;
  }
}

/**
 * The account rules the auth guard applies once it knows the caller (plugins/auth-guard.ts):
 * an account the two-factor requirement holds can only set it up; and an API token carries its
 * owner's user rights, never an admin's (no token scope reaches admin routes or other users'
 * objects, whoever owns the token).
 */
export function callerPolicy(policy: TTwoFactorPolicy) {
  return (request: FastifyRequest, user: TUserRow): TUserRow => {
    if (twoFactorSetupPending(user, policy) && !request.routeOptions.config?.beforeTwoFactorSetup) {
      throw new AppError('two_factor_setup_required', 403);
    }
    return request.apiToken && user.role !== 'user' ? { ...user, role: 'user' } : user;
  };
}
