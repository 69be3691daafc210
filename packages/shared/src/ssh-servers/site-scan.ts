import { z } from 'zod';

// "Sites on this server" (docs/PRODUCT.md#sites-on-this-server): what a scan read from a saved
// server's nginx and certbot. Every field is allowlisted and bounded on the server first: it
// comes from a machine Portico does not control.

export const SITE_CLASSES = [
  'managed',
  'adopted',
  'adoptable',
  'not_proxy',
  'conflict',
  'broken',
] as const;
export type TSiteClass = (typeof SITE_CLASSES)[number];

/** Why a site is in its class, when there is more than one way to get there. */
export const SITE_REASONS = [
  'portico_file',
  'portico_record',
  'adopted_here',
  'served_twice',
  'owned_elsewhere',
  'proxy',
  'proxy_unreadable_target',
  'static',
  'redirect',
  'other',
  'nginx_test_failed',
] as const;

/** A server name as nginx matches it: a host name, a wildcard, or `_`. */
export const SCANNED_NAME = /^[a-z0-9*_.-]{1,253}$/;
/** A file path on the server: printable, no spaces or quotes. */
export const SCANNED_PATH = /^\/[A-Za-z0-9._/@+-]{0,511}$/;

const ZScannedPath = z.string().max(512).regex(SCANNED_PATH);
/** Printable ASCII, for values shown as written (a `proxy_pass`, a `return`). */
const ZScannedValue = z
  .string()
  .max(300)
  .regex(/^[\x20-\x7e]*$/);

export const ZScannedCertificate = z.object({
  name: z.string().max(255).regex(SCANNED_NAME),
  domains: z.array(z.string().max(253).regex(SCANNED_NAME)).max(100),
  expiresAt: z.string().nullable(),
  /** certbot's authenticator and installer (e.g. `nginx`, `webroot`), when allowlisted. */
  authenticator: z
    .string()
    .max(40)
    .regex(/^[a-z0-9_-]+$/)
    .nullable(),
  installer: z
    .string()
    .max(40)
    .regex(/^[a-z0-9_-]+$/)
    .nullable(),
  path: ZScannedPath.nullable(),
});
export type TScannedCertificate = z.infer<typeof ZScannedCertificate>;

export const ZScannedSite = z.object({
  serverName: z.string().max(253).regex(SCANNED_NAME),
  class: z.enum(SITE_CLASSES),
  reason: z.enum(SITE_REASONS),
  /** The file of the block that serves the site (the one with `proxy_pass`, else the first). */
  file: ZScannedPath,
  /** Every file with a block for this name. */
  files: z.array(ZScannedPath).max(20),
  fileSha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  ports: z.array(z.number().int().min(1).max(65535)).max(20),
  tls: z.boolean(),
  certificatePath: ZScannedPath.nullable(),
  /** certbot's certificate whose live/ files the site uses. */
  certificate: z.string().max(255).regex(SCANNED_NAME).nullable(),
  certificateExpiresAt: z.string().nullable(),
  /** The `proxy_pass` of `location /` as Portico would record it (normalised), when readable. */
  target: z.string().max(300).nullable(),
  proxyPass: z.array(ZScannedValue).max(20),
  root: ZScannedPath.nullable(),
  redirect: ZScannedValue.nullable(),
  /** The Portico proxy of this name, when the caller may see it. */
  proxyId: z.string().nullable(),
  /** Adopted here, and the file's hash is no longer the one recorded at adoption. */
  changedSinceAdoption: z.boolean(),
});
export type TScannedSite = z.infer<typeof ZScannedSite>;

export const ZSiteScan = z.object({
  scannedAt: z.string(),
  nginxTest: z.object({
    ok: z.boolean(),
    /** nginx's own words (printable, at most 4000 characters). */
    output: z.string().max(4000),
  }),
  sites: z.array(ZScannedSite).max(5000),
  certificates: z.array(ZScannedCertificate).max(500),
  /** Server names left out because they are not plain names (regular expressions, odd bytes). */
  skippedNames: z.number().int().nonnegative(),
  /** The server's answer was longer than Portico reads: the list may be incomplete. */
  truncated: z.boolean(),
});
export type TSiteScan = z.infer<typeof ZSiteScan>;

const ZAdoptName = z
  .string({ error: 'validation.required' })
  .trim()
  .toLowerCase()
  .max(253, 'validation.domain.invalid')
  .regex(SCANNED_NAME, 'validation.domain.invalid');

/** POST /api/ssh-servers/{id}/adopt: one name, or several (at most 100). */
export const ZAdoptSitesInput = z.union([
  z.object({ serverName: ZAdoptName }).strict(),
  z.object({ serverNames: z.array(ZAdoptName).min(1, 'validation.required').max(100) }).strict(),
]);
export type TAdoptSitesInput = z.infer<typeof ZAdoptSitesInput>;

export const ZAdoptSitesAnswer = z.object({
  adopted: z.array(z.object({ serverName: z.string(), proxyId: z.string() })),
});
export type TAdoptSitesAnswer = z.infer<typeof ZAdoptSitesAnswer>;
