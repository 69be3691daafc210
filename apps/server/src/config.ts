import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { LIMIT_DEFAULTS, LIMIT_MAX, type TLimits } from '@portico/shared/admin/limits';
import { z } from 'zod';
import {
  ACME_EAB_HMAC_PATTERN,
  ACME_EAB_KID_PATTERN,
  ACME_PROFILE_PATTERN,
  LETS_ENCRYPT_DIRECTORY,
  type TAcmeEab,
} from './deploy/acme';
import { JOB_TIMING } from './jobs/queues';
import { isIP } from './net/tcp';

/**
 * Every environment variable Portico reads, parsed once at start-up. A bad value stops the
 * process with a message naming the variable, instead of failing later somewhere deep.
 */

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
/** "true" or "false" in any case; unset or blank is false. */
const falseUnlessTrue = z.preprocess(
  (v) => (typeof v === 'string' ? emptyToUndefined(v.trim().toLowerCase()) : v),
  z
    .enum(['true', 'false'], { error: 'must be "true" or "false"' })
    .default('false')
    .transform((v) => v === 'true'),
);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

/** A whole number from `min` to `max`, `fallback` when unset or blank. */
function wholeNumber(min: number, max: number, fallback: number) {
  const words = `must be a whole number between ${min} and ${max}`;
  return z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: words }).int(words).min(min, words).max(max, words).default(fallback),
  );
}

/** Seconds for a request's headers and body (PORTICO_REQUEST_TIMEOUT): a 1 MB body at 35 KB/s. */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 30;

const ZPort = z.preprocess(
  emptyToUndefined,
  z.coerce
    .number({ error: 'must be a whole number between 0 and 65535' })
    .int('must be a whole number between 0 and 65535')
    .min(0, 'must be a whole number between 0 and 65535')
    .max(65535, 'must be a whole number between 0 and 65535')
    .default(3000),
);

function isAddressOrCidr(value: string): boolean {
  const [address = '', bits, ...rest] = value.split('/');
  if (rest.length > 0) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (family === 4 ? 32 : 128);
}

/** false | true | hop count | list of addresses/CIDRs — the shapes Fastify's trustProxy takes. */
const ZTrustProxy = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .default('false')
    .transform((raw, ctx): boolean | number | string[] => {
      const v = raw.trim().toLowerCase();
      if (v === 'false' || v === '0') return false;
      if (v === 'true') return true;
      if (/^\d+$/.test(v)) return Number(v);
      const list = v.split(',').map((s) => s.trim());
      if (list.every((entry) => entry === 'loopback' || isAddressOrCidr(entry))) return list;
      ctx.addIssue({
        code: 'custom',
        message: 'must be false, true, a hop count, or a comma-separated list of addresses/CIDRs',
      });
      return z.NEVER;
    }),
);

const ZDnsServers = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .optional()
    .transform((raw, ctx): string[] => {
      if (raw === undefined) return [];
      const list = raw.split(',').map((s) => s.trim());
      for (const entry of list) {
        const host = entry.replace(/^\[(.*)\](:\d+)?$/, '$1').replace(/^([\d.]+):\d+$/, '$1');
        if (isIP(host) === 0) {
          ctx.addIssue({ code: 'custom', message: `"${entry}" is not an IP address` });
          return z.NEVER;
        }
      }
      return list;
    }),
);

function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** An address, or `Name <address>`; no line breaks (it becomes a mail header). */
const MAIL_FROM = /^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

const ZEnv = z.object({
  PORT: ZPort,
  HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
  PORTICO_DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
  ),
  PORTICO_REGISTRATION: z.preprocess(
    (v) => (typeof v === 'string' ? emptyToUndefined(v.trim().toLowerCase()) : v),
    z.enum(['open', 'closed'], { error: 'must be "open" or "closed"' }).default('open'),
  ),
  PORTICO_REQUIRE_2FA: z.preprocess(
    (v) => (typeof v === 'string' ? emptyToUndefined(v.trim().toLowerCase()) : v),
    z.enum(['off', 'admins', 'all'], { error: 'must be "off", "admins" or "all"' }).default('off'),
  ),
  PORTICO_TRUST_PROXY: ZTrustProxy,
  PORTICO_SECRET_KEY_FILE: optionalString,
  PORTICO_SESSION_SECRET: z.preprocess(
    emptyToUndefined,
    z.string().min(32, 'must be at least 32 characters long').optional(),
  ),
  ACME_DIRECTORY_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^https?:\/\/\S+$/, 'must be an http:// or https:// URL')
      .default(LETS_ENCRYPT_DIRECTORY),
  ),
  // The name the ACME settings share; ACME_DIRECTORY_URL stays for the instances that set it.
  PORTICO_ACME_SERVER: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^https?:\/\/[^\s'"\\]+$/, 'must be an http:// or https:// URL')
      .optional(),
  ),
  PORTICO_ACME_EAB_KID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(ACME_EAB_KID_PATTERN, 'must be a key id (letters, digits, ".", "-", "_")')
      .optional(),
  ),
  PORTICO_ACME_EAB_HMAC_KEY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(ACME_EAB_HMAC_PATTERN, 'must be the base64url HMAC key the CA gave')
      .optional(),
  ),
  PORTICO_ACME_PROFILE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(ACME_PROFILE_PATTERN, 'must be a profile name (letters, digits, ".", "-", "_")')
      .optional(),
  ),
  // certbot's DNS plugins' wait for a TXT record to be seen everywhere; each plugin's default
  // (rfc2136 60 s, cloudflare 10 s) when unset.
  PORTICO_DNS_PROPAGATION_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a whole number between 0 and 3600' })
      .int('must be a whole number between 0 and 3600')
      .min(0, 'must be a whole number between 0 and 3600')
      .max(3600, 'must be a whole number between 0 and 3600')
      .optional(),
  ),
  PORTICO_EXTRA_CA_FILE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((p) => existsSync(p), 'file does not exist')
      .optional(),
  ),
  PORTICO_ACME_CA_BUNDLE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((p) => existsSync(p), 'file does not exist')
      .optional(),
  ),
  PORTICO_DNS_SERVERS: ZDnsServers,
  PORTICO_SMTP_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine(
        isSmtpUrl,
        'must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587',
      )
      .optional(),
  ),
  PORTICO_MAIL_FROM: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(
        MAIL_FROM,
        'must be an e-mail address, optionally with a name: Portico <portico@example.com>',
      )
      .optional(),
  ),
  PORTICO_BACKUP_DIR: optionalString,
  PORTICO_BACKUP_TIME: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day in UTC, HH:MM (e.g. 03:30)')
      .default('03:00'),
  ),
  PORTICO_BACKUP_KEEP: wholeNumber(1, 1000, 7),
  PORTICO_BACKUP_PASSPHRASE_FILE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((p) => existsSync(p), 'file does not exist')
      .optional(),
  ),
  PORTICO_WEBHOOK_ALLOW_PRIVATE: falseUnlessTrue,
  PORTICO_SSH_ALLOW_LOOPBACK: falseUnlessTrue,
  PORTICO_ALLOW_CUSTOM_NGINX: falseUnlessTrue,
  PORTICO_DEPLOY_WORKERS: wholeNumber(0, 64, JOB_TIMING.concurrency),
  PORTICO_REQUEST_TIMEOUT: wholeNumber(1, 3600, DEFAULT_REQUEST_TIMEOUT_SECONDS),
  PORTICO_MAX_PROXIES: wholeNumber(0, LIMIT_MAX, LIMIT_DEFAULTS.proxies),
  PORTICO_MAX_SERVERS: wholeNumber(0, LIMIT_MAX, LIMIT_DEFAULTS.servers),
  PORTICO_MAX_API_TOKENS: wholeNumber(0, LIMIT_MAX, LIMIT_DEFAULTS.apiTokens),
  PORTICO_MAX_WEBHOOKS: wholeNumber(0, LIMIT_MAX, LIMIT_DEFAULTS.webhooks),
  LOG_LEVEL: z.preprocess(
    (v) => (typeof v === 'string' ? emptyToUndefined(v.trim().toLowerCase()) : v),
    z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
  ),
});

export interface TConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  registration: 'open' | 'closed';
  /** Whose accounts must set up two-factor sign-in before doing anything else. */
  require2fa: 'off' | 'admins' | 'all';
  trustProxy: boolean | number | string[];
  secretKeyFile: string;
  sessionSecret: string | undefined;
  acmeDirectoryUrl: string;
  /** External Account Binding for the ACME CA (ZeroSSL, Google): the HMAC key is a secret. */
  acmeEab: TAcmeEab | undefined;
  /** The ACME profile certbot asks for where it supports profiles (4.0 and later). */
  acmeProfile: string | undefined;
  /** Seconds certbot's DNS plugins wait after writing the TXT record (DNS-01). */
  dnsPropagationSeconds: number | undefined;
  extraCaFile: string | undefined;
  /** PEM the user's servers' certbot must trust to reach a private ACME directory. */
  acmeCaBundle: string | undefined;
  dnsServers: string[];
  /** Certificate alerts by e-mail; both unset means no e-mail. */
  smtpUrl: string | undefined;
  mailFrom: string | undefined;
  /** Daily backups (docs/OPERATIONS.md), when PORTICO_BACKUP_DIR is set. */
  backups: TBackupSchedule | undefined;
  /** Webhooks may point at private and loopback addresses (docs/SECURITY.md, SSRF). */
  webhookAllowPrivate: boolean;
  /**
   * SSH to 127.0.0.0/8 (this machine) allowed: for development and tests only. Otherwise the
   * connection test and deployments refuse it (docs/SECURITY.md, reachability).
   */
  sshAllowLoopback: boolean;
  /**
   * Proxies may carry advanced nginx lines for their server block (docs/SECURITY.md): whoever
   * can edit a proxy can then write any server-level directive into nginx on that server.
   */
  allowCustomNginx: boolean;
  /** Deployments this instance works at once; 0 makes an instance that only serves the API. */
  deployWorkers: number;
  /**
   * Seconds a client has to send a request's headers and its whole body; a request still
   * arriving after that is answered 408 and its connection closed. The log socket is not a
   * request once upgraded, so it is not cut.
   */
  requestTimeoutSeconds: number;
  /** How many of each thing one account may hold, unless an admin set its own limit. */
  limits: TLimits;
  logLevel: string;
}

export interface TBackupSchedule {
  dir: string;
  /** HH:MM, UTC. */
  time: string;
  /** How many archives stay in `dir`; older ones are deleted after a backup succeeds. */
  keep: number;
  /** A file whose first line encrypts the archives; without it they hold the key in clear. */
  passphraseFile: string | undefined;
  /** `<dataDir>/session.secret`, kept in the archive with the secret key. */
  sessionSecretFile: string;
}

// Values never echoed back in an error message: they may hold a password.
const SECRET_VARS = new Set([
  'PORTICO_SESSION_SECRET',
  'DATABASE_URL',
  'PORTICO_SMTP_URL',
  'PORTICO_ACME_EAB_HMAC_KEY',
]);

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws ConfigError listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): TConfig {
  const result = ZEnv.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      const raw = env[name];
      const shown = SECRET_VARS.has(name) || raw === undefined ? '' : ` (got "${raw}")`;
      return `${name}: ${issue.message}${shown}`;
    });
    throw new ConfigError(problems);
  }
  const e = result.data;
  if (e.PORTICO_SMTP_URL && !e.PORTICO_MAIL_FROM) {
    throw new ConfigError([
      'PORTICO_MAIL_FROM: must be set when PORTICO_SMTP_URL is (the sender of alert e-mails)',
    ]);
  }
  if (!e.PORTICO_ACME_EAB_KID !== !e.PORTICO_ACME_EAB_HMAC_KEY) {
    throw new ConfigError([
      'PORTICO_ACME_EAB_KID, PORTICO_ACME_EAB_HMAC_KEY: set both (External Account Binding) or neither',
    ]);
  }
  const dataDir = resolve(e.PORTICO_DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    registration: e.PORTICO_REGISTRATION,
    require2fa: e.PORTICO_REQUIRE_2FA,
    trustProxy: e.PORTICO_TRUST_PROXY,
    secretKeyFile: resolve(e.PORTICO_SECRET_KEY_FILE ?? resolve(dataDir, 'secret.key')),
    sessionSecret: e.PORTICO_SESSION_SECRET,
    acmeDirectoryUrl: e.PORTICO_ACME_SERVER ?? e.ACME_DIRECTORY_URL,
    acmeEab:
      e.PORTICO_ACME_EAB_KID && e.PORTICO_ACME_EAB_HMAC_KEY
        ? { kid: e.PORTICO_ACME_EAB_KID, hmacKey: e.PORTICO_ACME_EAB_HMAC_KEY }
        : undefined,
    acmeProfile: e.PORTICO_ACME_PROFILE,
    dnsPropagationSeconds: e.PORTICO_DNS_PROPAGATION_SECONDS,
    extraCaFile: e.PORTICO_EXTRA_CA_FILE && resolve(e.PORTICO_EXTRA_CA_FILE),
    acmeCaBundle: e.PORTICO_ACME_CA_BUNDLE && resolve(e.PORTICO_ACME_CA_BUNDLE),
    dnsServers: e.PORTICO_DNS_SERVERS,
    smtpUrl: e.PORTICO_SMTP_URL,
    mailFrom: e.PORTICO_MAIL_FROM,
    backups: e.PORTICO_BACKUP_DIR
      ? {
          dir: resolve(e.PORTICO_BACKUP_DIR),
          time: e.PORTICO_BACKUP_TIME,
          keep: e.PORTICO_BACKUP_KEEP,
          passphraseFile:
            e.PORTICO_BACKUP_PASSPHRASE_FILE && resolve(e.PORTICO_BACKUP_PASSPHRASE_FILE),
          sessionSecretFile: resolve(dataDir, 'session.secret'),
        }
      : undefined,
    webhookAllowPrivate: e.PORTICO_WEBHOOK_ALLOW_PRIVATE,
    sshAllowLoopback: e.PORTICO_SSH_ALLOW_LOOPBACK,
    allowCustomNginx: e.PORTICO_ALLOW_CUSTOM_NGINX,
    deployWorkers: e.PORTICO_DEPLOY_WORKERS,
    requestTimeoutSeconds: e.PORTICO_REQUEST_TIMEOUT,
    limits: {
      proxies: e.PORTICO_MAX_PROXIES,
      servers: e.PORTICO_MAX_SERVERS,
      apiTokens: e.PORTICO_MAX_API_TOKENS,
      webhooks: e.PORTICO_MAX_WEBHOOKS,
    },
    logLevel: e.LOG_LEVEL,
  };
}

/** Settings that work but weaken Portico; printed as warnings at start. */
export function configWarnings(
  config: Pick<TConfig, 'trustProxy'> &
    Partial<Pick<TConfig, 'sshAllowLoopback' | 'allowCustomNginx'>>,
): string[] {
  const warnings: string[] = [];
  if (config.allowCustomNginx) {
    warnings.push(
      'PORTICO_ALLOW_CUSTOM_NGINX=true lets whoever may edit a proxy write nginx directives ' +
        "into its server block on the proxy's server. Turn it on only where those users are trusted.",
    );
  }
  if (config.sshAllowLoopback) {
    warnings.push(
      'PORTICO_SSH_ALLOW_LOOPBACK=true lets every signed-in user point the SSH test and ' +
        "deployments at this machine's own SSH server (127.0.0.0/8). Use it for development " +
        'and tests only.',
    );
  }
  if (config.trustProxy === true) {
    warnings.push(
      'PORTICO_TRUST_PROXY=true trusts every X-Forwarded-For entry, including those a client ' +
        'writes itself, so a client can pick the address the sign-in rate limits count. Set the ' +
        "proxy's address (e.g. 127.0.0.1) or its hop count (1) instead.",
    );
  }
  return warnings;
}
