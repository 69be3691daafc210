import { z } from 'zod';
import { isManualDestination } from '../validation/rules';
import {
  ADVANCED_TEXT,
  BASIC_AUTH_USER,
  cidrProblem,
  HEADER_NAME,
  HEADER_VALUE,
  LOCATION_PATH,
  RESERVED_HEADERS,
  upstreamParts,
} from './options-rules';

// A proxy's options (docs/PRODUCT.md#proxy-options): every value is matched against an allowlist
// here, on the server again before rendering (deploy/nginx-site.ts), and reaches nginx only
// through the one template. Messages are keys of the shared `proxyOptions` group.

const K = 'proxyOptions.invalid';
export const MAX_UPSTREAMS = 32;
export const MAX_LOCATIONS = 20;
export const MAX_HEADERS = 20;
export const MAX_BASIC_AUTH_USERS = 50;
export const MAX_ACCESS_RULES = 100;
export const MAX_ADVANCED = 4096;
export const LOAD_BALANCING = ['round_robin', 'least_conn', 'ip_hash'] as const;
export const REDIRECT_CODES = [301, 302, 307, 308] as const;

/** A whole number from `min` to `max`, every refusal in the one message of its field. */
const ZWhole = (min: number, max: number, reason: string) =>
  z
    .number({ error: `${K}.${reason}` })
    .int(`${K}.${reason}`)
    .min(min, `${K}.${reason}`)
    .max(max, `${K}.${reason}`);

const ZUpstream = z.object({
  url: z
    .string({ error: `${K}.upstreamUrl` })
    .max(2048, `${K}.upstreamUrl`)
    .refine((v) => isManualDestination(v) && upstreamParts(v) !== undefined, `${K}.upstreamUrl`),
  weight: ZWhole(1, 100, 'weight').optional(),
  backup: z.boolean().optional(),
});
export type TUpstream = z.infer<typeof ZUpstream>;

/** One scheme and one path for a group: nginx's upstream block names host:port only. */
function oneSchemeAndPath(list: TUpstream[], ctx: z.RefinementCtx) {
  const parts = list.map((u) => upstreamParts(u.url));
  const first = parts[0];
  if (!first) return;
  parts.forEach((p, i) => {
    if (p && (p.scheme !== first.scheme || p.path !== first.path)) {
      ctx.addIssue({ code: 'custom', message: `${K}.upstreamsMixed`, path: [i, 'url'] });
    }
  });
  if (list.every((u) => u.backup)) {
    ctx.addIssue({ code: 'custom', message: `${K}.allBackup`, path: [0, 'backup'] });
  }
}

const ZUpstreams = z
  .array(ZUpstream, { error: `${K}.upstreams` })
  .min(1, `${K}.upstreams`)
  .max(MAX_UPSTREAMS, `${K}.upstreamsTooMany`)
  .superRefine(oneSchemeAndPath);

const ZSeconds = (max: number) => ZWhole(1, max, 'seconds');

const ZHeader = z.object({
  name: z
    .string({ error: `${K}.headerName` })
    .regex(HEADER_NAME, `${K}.headerName`)
    .refine((v) => !RESERVED_HEADERS.includes(v.toLowerCase()), `${K}.headerReserved`),
  value: z.string({ error: `${K}.headerValue` }).regex(HEADER_VALUE, `${K}.headerValue`),
});

const ZCidr = z.string({ error: `${K}.cidr` }).superRefine((v, ctx) => {
  const problem = cidrProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', message: `${K}.${problem}` });
});

/** A basic-auth user as given: a password is only sent to set or change it (write-only). */
const ZBasicAuthUserInput = z.object({
  username: z.string({ error: `${K}.username` }).regex(BASIC_AUTH_USER, `${K}.username`),
  password: z
    .string({ error: `${K}.password` })
    .min(8, `${K}.password`)
    .max(128, `${K}.password`)
    .regex(/^[\x20-\x7e]+$/, `${K}.password`)
    .optional(),
});

function uniqueBy<T>(key: (item: T) => string, message: string, field: string) {
  return (list: T[], ctx: z.RefinementCtx) => {
    const seen = new Set<string>();
    list.forEach((item, i) => {
      const k = key(item);
      if (seen.has(k)) ctx.addIssue({ code: 'custom', message, path: [i, field] });
      seen.add(k);
    });
  };
}

const ZLocation = z.object({
  path: z
    .string({ error: `${K}.locationPath` })
    .max(256, `${K}.locationPath`)
    .regex(LOCATION_PATH, `${K}.locationPath`)
    .refine((v) => v !== '/' && !v.startsWith('/.well-known/acme-challenge'), `${K}.locationPath`),
  upstreams: ZUpstreams,
});

const ZRedirect = z.object({
  to: z
    .string({ error: `${K}.redirectUrl` })
    .max(2048, `${K}.redirectUrl`)
    .refine((v) => /^https?:\/\//i.test(v) && upstreamParts(v) !== undefined, `${K}.redirectUrl`),
  code: z
    .number({ error: `${K}.redirectCode` })
    .refine((v) => (REDIRECT_CODES as readonly number[]).includes(v), `${K}.redirectCode`)
    .default(301),
  keepPath: z.boolean().default(true),
});

const shape = {
  /** Several upstreams; when set, its first is the proxy's `targetServer`. */
  upstreams: ZUpstreams.optional(),
  loadBalancing: z.enum(LOAD_BALANCING, `${K}.loadBalancing`).optional(),
  /** Passive health: a server failing `maxFails` times is left out for `failTimeout` seconds. */
  health: z
    .object({
      maxFails: ZWhole(0, 100, 'maxFails'),
      failTimeout: ZSeconds(3600),
    })
    .optional(),
  hsts: z
    .object({
      maxAge: ZWhole(0, 63072000, 'hstsMaxAge'),
      includeSubDomains: z.boolean().default(false),
      preload: z.boolean().default(false),
    })
    .optional(),
  headers: z
    .array(ZHeader)
    .max(MAX_HEADERS, `${K}.headersTooMany`)
    .superRefine(uniqueBy((h) => h.name.toLowerCase(), `${K}.headerDuplicate`, 'name'))
    .optional(),
  /** Megabytes; 0 lifts the limit. */
  clientMaxBodyMb: ZWhole(0, 10240, 'bodySize').optional(),
  timeouts: z
    .object({ connect: ZSeconds(75), send: ZSeconds(86400), read: ZSeconds(86400) })
    .partial()
    .optional(),
  websocket: z.boolean().optional(),
  compression: z.boolean().optional(),
  basicAuth: z
    .array(ZBasicAuthUserInput)
    .max(MAX_BASIC_AUTH_USERS, `${K}.usersTooMany`)
    .superRefine(uniqueBy((u) => u.username, `${K}.usernameDuplicate`, 'username'))
    .optional(),
  allow: z.array(ZCidr).max(MAX_ACCESS_RULES, `${K}.rulesTooMany`).optional(),
  deny: z.array(ZCidr).max(MAX_ACCESS_RULES, `${K}.rulesTooMany`).optional(),
  locations: z
    .array(ZLocation)
    .max(MAX_LOCATIONS, `${K}.locationsTooMany`)
    .superRefine(uniqueBy((l) => l.path, `${K}.locationDuplicate`, 'path'))
    .optional(),
  redirect: ZRedirect.optional(),
  /** Lines for the server block; refused unless the instance allows them (PORTICO_ALLOW_CUSTOM_NGINX). */
  advanced: z
    .string({ error: `${K}.advanced` })
    .max(MAX_ADVANCED, `${K}.advanced`)
    .regex(ADVANCED_TEXT, `${K}.advanced`)
    .optional(),
};

/** `backup` servers cannot be combined with ip_hash (nginx refuses the file). */
function backupFitsMethod(
  o: { upstreams?: TUpstream[]; loadBalancing?: string; locations?: { upstreams: TUpstream[] }[] },
  ctx: z.RefinementCtx,
) {
  if (o.loadBalancing !== 'ip_hash') return;
  const groups: [PropertyKey[], TUpstream[]][] = [
    [['upstreams'], o.upstreams ?? []],
    ...(o.locations ?? []).map((l, i): [PropertyKey[], TUpstream[]] => [
      ['locations', i, 'upstreams'],
      l.upstreams,
    ]),
  ];
  for (const [path, list] of groups) {
    list.forEach((u, i) => {
      if (u.backup)
        ctx.addIssue({
          code: 'custom',
          message: `${K}.backupWithIpHash`,
          path: [...path, i, 'backup'],
        });
    });
  }
}

/** The options a create or an update sends. */
export const ZProxyOptionsInput = z
  .strictObject(shape, `${K}.unknown`)
  .superRefine(backupFitsMethod);
export type TProxyOptionsInput = z.infer<typeof ZProxyOptionsInput>;

/** sha512-crypt (`$6$salt$hash`), which nginx checks through the C library's crypt(). */
export const PASSWORD_HASH = /^\$6\$[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{86}$/;

/** The options as stored with the proxy: each user's password only as its hash. */
export const ZProxyOptions = z
  .strictObject({
    ...shape,
    basicAuth: z
      .array(
        z.strictObject({
          username: z.string().regex(BASIC_AUTH_USER),
          passwordHash: z.string().regex(PASSWORD_HASH),
        }),
      )
      .max(MAX_BASIC_AUTH_USERS)
      .optional(),
  })
  .superRefine(backupFitsMethod);
export type TProxyOptions = z.infer<typeof ZProxyOptions>;

/** The options as the API answers them: each user's password only as whether one is set. */
export const ZProxyOptionsView = z.strictObject({
  ...shape,
  basicAuth: z.array(z.object({ username: z.string(), hasPassword: z.boolean() })).optional(),
});
export type TProxyOptionsView = z.infer<typeof ZProxyOptionsView>;

/** A redirect to the proxy's own domain would answer every request with itself. */
export function redirectLoops(
  domain: string,
  options: Pick<TProxyOptionsInput, 'redirect'> | undefined,
): boolean {
  const to = options?.redirect ? upstreamParts(options.redirect.to) : undefined;
  return to !== undefined && to.host === domain.toLowerCase();
}
