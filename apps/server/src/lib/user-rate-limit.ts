import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { AppError } from './app-error';
import type { TRateLimitRule } from './rate-limits';

export interface TKeyedRateLimit extends TRateLimitRule {
  /** What the request is counted under, besides the route name. */
  key(request: FastifyRequest): string;
}

/**
 * A preHandler (after requireUser, so request.user is known) counting the request against every
 * rule; over any of them answers 429 saying how long to wait, as the auth limits do.
 */
export function keyedRateLimit(
  app: FastifyInstance,
  name: string,
  rules: TKeyedRateLimit[],
): preHandlerAsyncHookHandler {
  const limiters = rules.map((rule, index) =>
    app.createRateLimit({
      max: rule.max,
      timeWindow: rule.windowMs,
      keyGenerator: (request) => `${name}:${index}:${rule.key(request)}`,
    }),
  );
  return async (request, reply) => {
    for (const limiter of limiters) {
      const result = await limiter(request);
      if (!result.isAllowed && result.isExceeded) {
        const seconds = Math.max(1, result.ttlInSeconds);
        reply.header('retry-after', String(seconds));
        throw new AppError('rate_limited', 429, { seconds });
      }
    }
  };
}

/** The signed-in user's id; only behind requireUser. */
export const byUser = (request: FastifyRequest) => request.user?.id ?? `ip:${request.ip}`;
