import { z } from 'zod';

/**
 * How many of each thing one account may hold (docs/PRODUCT.md#limits). The defaults are far
 * above what a person uses and far below what fills a disk or a list: a script or a stolen
 * token stops at them. An operator sets them for everyone (PORTICO_MAX_*), an admin for one
 * account.
 */
export const LIMIT_KINDS = ['proxies', 'servers', 'apiTokens', 'webhooks'] as const;
export const ZLimitKind = z.enum(LIMIT_KINDS);
export type TLimitKind = z.infer<typeof ZLimitKind>;
export type TLimits = Record<TLimitKind, number>;

export const LIMIT_DEFAULTS: TLimits = {
  proxies: 1000,
  servers: 50,
  apiTokens: 50,
  webhooks: 20,
};
/** The highest limit the configuration or an admin may set. */
export const LIMIT_MAX = 1_000_000;

const ZLimitValue = z
  .number({ error: 'validation.limit.number' })
  .int('validation.limit.number')
  .min(0, 'validation.limit.number')
  .max(LIMIT_MAX, 'validation.limit.number');

/**
 * PUT /api/admin/users/{id}/limits: each kind given is set for that account, null goes back to
 * the configured default; kinds left out stay as they are.
 */
export const ZUserLimitsChange = z
  .object(
    Object.fromEntries(LIMIT_KINDS.map((kind) => [kind, ZLimitValue.nullable().optional()])) as {
      [K in TLimitKind]: z.ZodOptional<z.ZodNullable<typeof ZLimitValue>>;
    },
  )
  .strict();
export type TUserLimitsChange = z.infer<typeof ZUserLimitsChange>;

/** One kind for one account: the limit in force, whether an admin set it, and the count. */
const ZUserLimit = z.object({
  limit: z.number(),
  custom: z.boolean(),
  used: z.number(),
});
export const ZUserLimits = z.object(
  Object.fromEntries(LIMIT_KINDS.map((kind) => [kind, ZUserLimit])) as {
    [K in TLimitKind]: typeof ZUserLimit;
  },
);
export type TUserLimits = z.infer<typeof ZUserLimits>;
