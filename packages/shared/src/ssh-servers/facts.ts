import { z } from 'zod';

// What a saved server's check read (docs/PRODUCT.md#ssh-servers): every field allowlisted and
// bounded, because it comes from a server Portico does not control.

export const INIT_SYSTEMS = ['systemd', 'openrc', 'sysvinit', 'other'] as const;
/** How the login reaches root: it is root, sudo without a password, sudo asking one, or none. */
export const ROOT_ACCESS = ['root', 'sudo_nopasswd', 'sudo_password', 'none'] as const;
export const RENEWAL_SCHEDULERS = ['certbot_timer', 'cron', 'none'] as const;

/** A version as programs print it: digits, dots, letters, `+~-`. */
const ZVersion = z
  .string()
  .max(40)
  .regex(/^[0-9A-Za-z.+~-]+$/);

export const ZPortHolder = z.object({
  port: z.union([z.literal(80), z.literal(443)]),
  listening: z.boolean(),
  /** The program listening, when the login may see it (root or password-less sudo). */
  program: z
    .string()
    .max(32)
    .regex(/^[0-9A-Za-z._-]+$/)
    .nullable(),
});
export type TPortHolder = z.infer<typeof ZPortHolder>;

/** A package of certbot's DNS plugins, as Debian (and EPEL) name them. */
export const DNS_PLUGIN_PACKAGE = /^python3-certbot-dns-[a-z0-9]{2,30}$/;
const ZPluginPackages = z.array(z.string().max(50).regex(DNS_PLUGIN_PACKAGE)).max(40);

/**
 * certbot's DNS plugins the server has installed, and those its package manager offers (the
 * installed ones too): null when no package index could be read (no apt, or one that does not
 * even list certbot), where nothing can be said.
 */
export const ZDnsPlugins = z.object({ installed: ZPluginPackages, offered: ZPluginPackages });
export type TDnsPlugins = z.infer<typeof ZDnsPlugins>;

export const ZServerFacts = z.object({
  os: z.object({
    id: z
      .string()
      .max(40)
      .regex(/^[0-9a-z._-]+$/)
      .nullable(),
    version: ZVersion.nullable(),
    /** PRETTY_NAME, printable characters only. */
    name: z.string().max(80).nullable(),
  }),
  initSystem: z.enum(INIT_SYSTEMS),
  rootAccess: z.enum(ROOT_ACCESS),
  nginx: z.object({ version: ZVersion.nullable(), running: z.boolean() }),
  certbot: z.object({ version: ZVersion.nullable() }),
  renewal: z.enum(RENEWAL_SCHEDULERS),
  ports: z.array(ZPortHolder).max(2),
  /** Free bytes on the file system of `/`; null when `df` gave nothing readable. */
  diskFreeBytes: z.number().int().nonnegative().nullable(),
  /** Absent from facts read before Portico asked (read as unknown). */
  dnsPlugins: ZDnsPlugins.nullable().optional(),
});
export type TServerFacts = z.infer<typeof ZServerFacts>;
