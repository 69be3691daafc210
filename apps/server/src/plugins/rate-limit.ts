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
     * request against both limits; over either one answers 429 saying how long to wait. Routes
     * that ask for the same `name` share its counters (the first call's limits and identifier).
     */
    authRateLimit(
      name: string,
      limits: TEndpointLimits,
      identifierOf: (request: FastifyRequest) => string | Promise<string>,
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

  // One limiter per name, however many routes use it: the in-memory store (PGlite) gives each
  // limiter its own counters, so the re-authentication of two modules would count apart.
  const limiters = new Map<string, preHandlerAsyncHookHandler>();
  app.decorate('authRateLimit', (name, limits, identifierOf) => {
    const made = limiters.get(name);
    if (made) return made;
    const byIp = app.createRateLimit({
      max: limits.perIp.max,
      timeWindow: limits.perIp.windowMs,
      keyGenerator: (request) => `${name}:ip:${request.ip}`,
    });
    const byIdentifier = app.createRateLimit({
      max: limits.perIdentifier.max,
      timeWindow: limits.perIdentifier.windowMs,
      keyGenerator: async (request) =>
        `${name}:id:${(await identifierOf(request)).trim().toLowerCase()}`,
    });
    const limiter: preHandlerAsyncHookHandler = async (request, reply) => {
      for (const limit of [byIp, byIdentifier]) {
        refuseOver(await limit(request), reply, 'rate_limited');
      }
    };
    limiters.set(name, limiter);
    return limiter;
  });

  app.decorate('accountRateLimit', (name, rule, code) => {
    const made = limiters.get(name);
    if (made) return made;
    const perAccount = app.createRateLimit({
      max: rule.max,
      timeWindow: rule.windowMs,
      keyGenerator: (request) => `${name}:user:${request.user!.id}`,
    });
    const limiter: preHandlerAsyncHookHandler = async (request, reply) => {
      refuseOver(await perAccount(request), reply, code);
    };
    limiters.set(name, limiter);
    return limiter;
  });
}

export const rateLimit = fp(rateLimitPlugin, { name: 'portico-rate-limit' });
