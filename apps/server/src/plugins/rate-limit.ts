import fastifyRateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import type { TRouteLimit } from '../lib/rate-limits';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The one way a route declares a rate limit: a preHandler counting the request against every
     * limit (each under its own key: the address, the signed-in account, or what the request
     * names); over any one it answers 429 with `code` (default `rate_limited`), saying in the
     * caller's language, and in `Retry-After`, how long to wait. Put it after requireUser where
     * a limit counts by account. Routes that ask for the same `name` share its counters (the
     * first call's limits), as every check of the password made while signed in does.
     */
    routeLimit(name: string, limits: TRouteLimit[], code?: string): preHandlerAsyncHookHandler;
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

/** What one request is counted under for a limit; names are trimmed and case-folded. */
async function keyOf(limit: TRouteLimit, request: FastifyRequest): Promise<string> {
  if (limit.by === 'ip') return `ip:${request.ip}`;
  if (limit.by === 'user') return request.user ? `user:${request.user.id}` : `ip:${request.ip}`;
  return `id:${(await limit.by(request)).trim().toLowerCase()}`;
}

async function rateLimitPlugin(app: FastifyInstance, options: TRateLimitPluginOptions) {
  // Only the limiter factory is used: @fastify/rate-limit runs one limit per route, we need
  // several. request.ip honours trustProxy, so X-Forwarded-For counts only when
  // PORTICO_TRUST_PROXY says.
  await app.register(fastifyRateLimit, { global: false, store: options.store });

  // One limiter per name, however many routes use it: the in-memory store (PGlite) gives each
  // limiter its own counters, so the re-authentication of two modules would count apart.
  const limiters = new Map<string, preHandlerAsyncHookHandler>();
  app.decorate('routeLimit', (name, limits, code = 'rate_limited') => {
    const made = limiters.get(name);
    if (made) return made;
    const counters = limits.map((limit, index) =>
      app.createRateLimit({
        max: limit.max,
        timeWindow: limit.windowMs,
        keyGenerator: async (request) => `${name}:${index}:${await keyOf(limit, request)}`,
      }),
    );
    const limiter: preHandlerAsyncHookHandler = async (request, reply) => {
      for (const counter of counters) refuseOver(await counter(request), reply, code);
    };
    limiters.set(name, limiter);
    return limiter;
  });
}

export const rateLimit = fp(rateLimitPlugin, { name: 'portico-rate-limit' });
