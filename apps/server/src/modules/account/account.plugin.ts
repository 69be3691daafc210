import type { FastifyInstance } from 'fastify';
import type { TDb } from '../../db/client';
import type { TAuthRateLimits } from '../../plugins/rate-limit';
import type { TSessionEnds } from '../../realtime/session-ends';
import type { TAuditService } from '../audit/audit.service';
import { createSessionsRepository } from '../sessions/sessions.repository';
import { sessionsRoutes } from '../sessions/sessions.routes';
import { createAccountSessions } from '../sessions/sessions.service';
import { tokensRoutes } from '../tokens/tokens.routes';
import type { TTokensService } from '../tokens/tokens.service';
import { twoFactorRoutes } from '../two-factor/two-factor.routes';
import type { TTwoFactorService } from '../two-factor/two-factor.service';
import type { TTwoFactorPolicy } from '../two-factor/two-factor-policy';
import type { TUsersService } from '../users/users.service';
import { accountRoutes } from './account.routes';
import { createAccountService } from './account.service';

export interface TAccountPluginOptions {
  db: TDb;
  users: TUsersService;
  audit: TAuditService;
  tokens: TTokensService;
  twoFactor: TTwoFactorService;
  sessionEnds: TSessionEnds;
  rateLimits: TAuthRateLimits;
  policy: TTwoFactorPolicy;
}

/**
 * The settings page's API (docs/PRODUCT.md#settings), every route under /api/account and for a signed-in browser
 * session only: profile, e-mail and password, two-factor sign-in, API tokens, sessions.
 */
export async function accountPlugin(app: FastifyInstance, options: TAccountPluginOptions) {
  const sessions = createAccountSessions({
    repository: createSessionsRepository(options.db),
    audit: options.audit,
    sessionEnds: options.sessionEnds,
  });
  const account = createAccountService({ users: options.users, sessions, audit: options.audit });
  const reauth = options.rateLimits.reauth;

  await app.register(accountRoutes, { account, reauth, policy: options.policy });
  await app.register(twoFactorRoutes, { twoFactor: options.twoFactor, reauth });
  await app.register(tokensRoutes, { tokens: options.tokens });
  await app.register(sessionsRoutes, { sessions });
}
