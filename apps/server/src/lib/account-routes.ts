import type { FastifyInstance } from 'fastify';
import { errorResponses } from './error-responses';
import { perIpAndIdentifier, type TEndpointLimits } from './rate-limits';

// The route contract every /api/account/* module shares (account, sessions, two-factor, tokens,
// notifications). It lives here rather than in account.routes.ts so those modules need not
// import the account module, which itself builds on sessions and two-factor.
export const ACCOUNT_TAGS = ['account'];
export const ACCOUNT_ERRORS = errorResponses(400, 401, 403, 404, 409, 429);

/** The rate limit on checks of the password or a code made while signed in, per account. */
export function reauthLimit(app: FastifyInstance, limits: TEndpointLimits) {
  return app.routeLimit(
    'reauth',
    perIpAndIdentifier(limits, (request) => request.user!.id),
  );
}
