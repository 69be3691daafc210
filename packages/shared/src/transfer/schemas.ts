import { z } from 'zod';
import { ZHostKeyFingerprint } from '../proxy/api';
import { redirectLoops, ZProxyOptions } from '../proxy/options';
import { ZEditProxyInput, ZServerInfoInput } from '../proxy/schemas';
import { SSH_PRIVATE_KEY_MAX, ZSshAuthKind, ZSshServerInput } from '../ssh-servers/schemas';

// A user's servers and proxies as one JSON document, to move them between instances
// (docs/PRODUCT.md#export-and-import). Messages are translation keys.

export const EXPORT_FORMAT = 'portico-export';
export const EXPORT_VERSION = 1;
/** The most one import takes: it is read whole into memory before anything is written. */
export const EXPORT_MAX_SERVERS = 10_000;
export const EXPORT_MAX_PROXIES = 100_000;
/** An import's request body, at most (a proxy with every option is about 8 KiB). */
export const IMPORT_BODY_MAX = 64 * 1024 * 1024;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const ZBase64 = (max: number) =>
  z.string().max(max, 'validation.import.damaged').regex(BASE64, 'validation.import.damaged');

/** The passphrase the secrets are sealed with: long enough that scrypt makes guessing slow. */
export const EXPORT_PASSPHRASE_MIN = 12;
export const ZExportPassphrase = z
  .string({ error: 'validation.required' })
  .min(EXPORT_PASSPHRASE_MIN, 'validation.import.passphraseShort')
  .max(1024, 'validation.tooLong');

/** How the secrets were sealed: AES-256-GCM under a scrypt key of the passphrase. */
export const ZExportSealing = z.strictObject({
  kdf: z.literal('scrypt'),
  N: z.literal(2 ** 15),
  r: z.literal(8),
  p: z.literal(1),
  salt: ZBase64(64),
  /** An HMAC under the key: a wrong passphrase is told apart from damage. */
  check: z.string().regex(/^[0-9a-f]{64}$/, 'validation.import.damaged'),
});
export type TExportSealing = z.infer<typeof ZExportSealing>;

/** A sealed secret, bound to the entry and field it belongs to. */
const ZSealed = ZBase64(4 * SSH_PRIVATE_KEY_MAX);

export const SERVER_SECRET_FIELDS = [
  'password',
  'privateKey',
  'passphrase',
  'sudoPassword',
] as const;
export type TServerSecretName = (typeof SERVER_SECRET_FIELDS)[number];

const server = ZSshServerInput.shape;
export const ZExportServer = z.strictObject({
  /** The server's id where it was exported: its proxies name it; a new id is given on import. */
  ref: z.string().min(1, 'validation.required').max(64, 'validation.tooLong'),
  name: server.name,
  host: server.host,
  port: server.port,
  username: server.username,
  authKind: ZSshAuthKind,
  description: server.description.unwrap().unwrap().nullable(),
  isActive: z.boolean(),
  /** The `authorized_keys` line of a key Portico generated. */
  publicKey: z
    .string()
    .max(SSH_PRIVATE_KEY_MAX, 'validation.tooLong')
    .regex(/^ssh-[a-z0-9-]+ [A-Za-z0-9+/=]+(?: [!-~ ]*)?$/, 'validation.import.damaged')
    .nullable(),
  hostKeyFingerprint: ZHostKeyFingerprint.nullable(),
  /** Present only in an export made with a passphrase. */
  secrets: z.partialRecord(z.enum(SERVER_SECRET_FIELDS), ZSealed).optional(),
});
export type TExportServer = z.infer<typeof ZExportServer>;

const edit = ZEditProxyInput.shape;
export const ZExportProxy = z.strictObject({
  domain: edit.domain,
  serverIp: edit.serverIp,
  sshPort: edit.sshPort,
  sshUser: edit.sshUser,
  email: ZServerInfoInput.shape.email,
  targetServer: edit.targetServer.nullable(),
  /** As stored: basic-auth users with their password hashes (never the passwords). */
  options: ZProxyOptions,
  /** The `ref` of the saved server it is on, or null. */
  server: z.string().max(64, 'validation.tooLong').nullable(),
  hostKeyFingerprint: ZHostKeyFingerprint.nullable(),
  /** Its own SSH password, for its own target; present only with a passphrase. */
  password: ZSealed.optional(),
});
export type TExportProxy = z.infer<typeof ZExportProxy>;

function consistent(
  v: { sealing: unknown; servers: TExportServer[]; proxies: TExportProxy[] },
  ctx: z.RefinementCtx,
) {
  const issue = (path: (string | number)[], message: string) =>
    ctx.addIssue({ code: 'custom', path, message });
  const refs = new Set<string>();
  v.servers.forEach((s, i) => {
    if (refs.has(s.ref)) issue(['servers', i, 'ref'], 'validation.import.duplicateServer');
    refs.add(s.ref);
    if (s.secrets && v.sealing === null)
      issue(['servers', i, 'secrets'], 'validation.import.damaged');
  });
  const domains = new Set<string>();
  v.proxies.forEach((p, i) => {
    if (domains.has(p.domain)) issue(['proxies', i, 'domain'], 'validation.import.duplicateDomain');
    domains.add(p.domain);
    if (p.server !== null && !refs.has(p.server)) {
      issue(['proxies', i, 'server'], 'validation.import.unknownServer');
    }
    if (p.password !== undefined && v.sealing === null) {
      issue(['proxies', i, 'password'], 'validation.import.damaged');
    }
    // The same rule as the edit dialog's: a redirect to itself would answer with itself.
    if (redirectLoops(p.domain, p.options)) {
      issue(['proxies', i, 'options', 'redirect', 'to'], 'proxyOptions.invalid.redirectLoop');
    }
  });
}

export const ZExportDocument = z
  .strictObject({
    format: z.literal(EXPORT_FORMAT, 'validation.import.notAnExport'),
    version: z.literal(EXPORT_VERSION, 'validation.import.version'),
    exportedAt: z.string().max(64),
    sealing: ZExportSealing.nullable(),
    servers: z.array(ZExportServer).max(EXPORT_MAX_SERVERS, 'validation.tooLong'),
    proxies: z.array(ZExportProxy).max(EXPORT_MAX_PROXIES, 'validation.tooLong'),
  })
  .superRefine(consistent);
export type TExportDocument = z.infer<typeof ZExportDocument>;

/** An export: with a passphrase its secrets are sealed in it, without one they are left out. */
export const ZExportInput = z.strictObject({ passphrase: ZExportPassphrase.optional() });
export type TExportInput = z.infer<typeof ZExportInput>;

export const ZImportInput = z.strictObject({
  document: ZExportDocument,
  /** The export's passphrase, when it carries secrets. */
  passphrase: z.string().max(1024, 'validation.tooLong').optional(),
});
export type TImportInput = z.infer<typeof ZImportInput>;

export const ZImportReport = z.object({
  servers: z.number(),
  proxies: z.number(),
  secrets: z.number(),
});
export type TImportReport = z.infer<typeof ZImportReport>;
