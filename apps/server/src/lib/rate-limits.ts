import type { FastifyRequest } from 'fastify';

/**
 * How often each endpoint may be called. Routes declare their limits with
 * `app.routeLimit(name, limits)` (plugins/rate-limit.ts, the one mechanism); the numbers live here.
 */
export interface TRateLimitRule {
  max: number;
  windowMs: number;
}

/**
 * One limit on a route: `max` requests in `windowMs`, counted per client address (`ip`), per
 * signed-in account (`user`), or per what the request names (a name tried, a host tested).
 */
export interface TRouteLimit extends TRateLimitRule {
  by: 'ip' | 'user' | ((request: FastifyRequest) => string | Promise<string>);
}

/** Limits for one endpoint: per client address and per account name being tried. */
export interface TEndpointLimits {
  perIp: TRateLimitRule;
  perIdentifier: TRateLimitRule;
}

export interface TAuthRateLimits {
  login: TEndpointLimits;
  register: TEndpointLimits;
  /** The sign-in's second step: per address and per account being signed in to. */
  twoFactor: TEndpointLimits;
  /** The password or a code asked again while signed in (settings): per address and account. */
  reauth: TEndpointLimits;
}

/**
 * Messages Portico sends when a signed-in user asks (issue 35): a test through every channel,
 * a code to verify an e-mail address. Counted per account, so no one makes Portico a mail
 * bomb or a fast prober of the network it sits in.
 */
export interface TMessageRateLimits {
  testSend: TRateLimitRule;
  emailCode: TRateLimitRule;
}

/** An endpoint's two limits: per address, and per what `identifierOf` names. */
export const perIpAndIdentifier = (
  limits: TEndpointLimits,
  identifierOf: (request: FastifyRequest) => string | Promise<string>,
): TRouteLimit[] => [
  { ...limits.perIp, by: 'ip' },
  { ...limits.perIdentifier, by: identifierOf },
];

export const DEFAULT_MESSAGE_RATE_LIMITS: TMessageRateLimits = {
  testSend: { max: 5, windowMs: 600_000 },
  emailCode: { max: 3, windowMs: 600_000 },
};

export const DEFAULT_AUTH_RATE_LIMITS: TAuthRateLimits = {
  login: { perIp: { max: 30, windowMs: 60_000 }, perIdentifier: { max: 10, windowMs: 600_000 } },
  register: {
    perIp: { max: 20, windowMs: 600_000 },
    perIdentifier: { max: 5, windowMs: 600_000 },
  },
  // Codes are limited like passwords: ten tries per account in ten minutes leave a 6-digit
  // code (three valid at a time) about one chance in 33,000 per window.
  twoFactor: {
    perIp: { max: 30, windowMs: 60_000 },
    perIdentifier: { max: 10, windowMs: 600_000 },
  },
  reauth: {
    perIp: { max: 30, windowMs: 60_000 },
    perIdentifier: { max: 10, windowMs: 600_000 },
  },
};
