import fastifyRateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import type { TEndpointLimits, TRateLimitRule } from '../lib/rate-limits';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * A preHandler (it runs after body validation, so the identifier is known) counting the
     * request against both limits; over either one answers 429 saying how long to wait.
     */
    authRateLimit(
      name: string,
      limits: TEndpointLimits,
      identifierOf: (request: FastifyRequest) => string,
    ): preHandlerAsyncHookHandler;
    /**
     * A preHandler counting the signed-in account's requests against `rule`; over it answers
     * 429 with `code`, whose message says in how many minutes to try again.
     */
    accountRateLimit(name: string, rule: TRateLimitRule, code: string): preHandlerAsyncHookHandler;
  }
}

export interface TRateLimitPluginOptions {
  /**
   * Where hits are counted: the shared database when several instances may serve (PostgreSQL,
   * modules/rate-limits/rate-limit-store.ts); left out, this process's memory (PGlite).
   */
  store?: RateLimitPluginOptions['store'];
}

type TLimiterResult =
  | { isAllowed: true }
  | { isAllowed: false; isExceeded: boolean; ttlInSeconds: number };

/** Over the limit: 429 with `code`, saying (and `Retry-After` telling) how long to wait. */
function refuseOver(result: TLimiterResult, reply: FastifyReply, code: string): void {
  if (result.isAllowed || !result.isExceeded) return;
  const seconds = Math.max(1, result.ttlInSeconds);
  reply.header('retry-after', String(seconds));
  throw new AppError(code, 429, { seconds, minutes: Math.ceil(seconds / 60) });
}

async function rateLimitPlugin(app: FastifyInstance, options: TRateLimitPluginOptions) {
  // Only the limiter factory is used: @fastify/rate-limit runs one limit per route, we need two.
  // request.ip honours trustProxy, so X-Forwarded-For counts only when PORTICO_TRUST_PROXY says.
  await app.register(fastifyRateLimit, { global: false, store: options.store });

  app.decorate('authRateLimit', (name, limits, identifierOf) => {
    const byIp = app.createRateLimit({
      max: limits.perIp.max,
      timeWindow: limits.perIp.windowMs,
      keyGenerator: (request) => `${name}:ip:${request.ip}`,
    });
    const byIdentifier = app.createRateLimit({
      max: limits.perIdentifier.max,
      timeWindow: limits.perIdentifier.windowMs,
      keyGenerator: (request) => `${name}:id:${identifierOf(request).trim().toLowerCase()}`,
    });
    return async (request, reply) => {
      for (const limiter of [byIp, byIdentifier]) {
        refuseOver(await limiter(request), reply, 'rate_limited');
      }
    };
  });

  app.decorate('accountRateLimit', (name, rule, code) => {
    const limiter = app.createRateLimit({
      max: rule.max,
      timeWindow: rule.windowMs,
      keyGenerator: (request) => `${name}:user:${request.user!.id}`,
    });
    return async (request, reply) => {
      refuseOver(await limiter(request), reply, code);
    };
  });
}

export const rateLimit = fp(rateLimitPlugin, { name: 'portico-rate-limit' });
