import { z } from 'zod';
import { ZText } from '../i18n/text';
import { pageOf, ZPageQuery } from '../lists/page';
import { ZPort, ZServerIp, ZSshPassword, ZSshUser } from '../proxy/schemas';
import { ZCleanString } from '../validation/text';
import { ZServerFacts } from './facts';

// Saved SSH servers (docs/PRODUCT.md#ssh-servers). Messages are translation keys.

export const SSH_AUTH_KINDS = ['password', 'key'] as const;
export const ZSshAuthKind = z.enum(SSH_AUTH_KINDS);

/**
 * A pasted private key: at most 16 KiB (an 8192-bit RSA key is about 6.5 KB). Whether it is a
 * key at all, of which type and with which passphrase is the server's call (deploy/ssh/keys.ts).
 */
export const SSH_PRIVATE_KEY_MAX = 16 * 1024;
export const ZSshPrivateKey = z
  .string({ error: 'validation.required' })
  .max(SSH_PRIVATE_KEY_MAX, 'sshKey.tooLarge')
  .refine((v) => v.trim().length > 0, 'validation.required');
export const ZSshPassphrase = z
  .string()
  .min(1, 'validation.required')
  .max(1024, 'validation.tooLong');

const ZServerName = ZCleanString('validation.required')
  .min(1, 'validation.required')
  .max(100, 'validation.tooLong');
const ZServerDescription = ZCleanString('validation.required').max(500, 'validation.tooLong');

const credentialFields = {
  authKind: ZSshAuthKind.optional(),
  password: ZSshPassword.optional(),
  privateKey: ZSshPrivateKey.optional(),
  passphrase: ZSshPassphrase.optional(),
  /** With a key: the password sudo asks for, when the user's sudo asks for one. */
  sudoPassword: ZSshPassword.optional(),
  /** Portico makes an Ed25519 pair; the answer carries its public half once, and on every read. */
  generateKey: z.boolean().optional(),
};

type TCredentialFields = {
  authKind?: 'password' | 'key';
  password?: string;
  privateKey?: string;
  passphrase?: string;
  sudoPassword?: string;
  generateKey?: boolean;
};

/** One way to log in per request: the fields that do not belong to the chosen kind are refused. */
function oneCredential(v: TCredentialFields, ctx: z.RefinementCtx, creating: boolean) {
  const issue = (path: string, message: string) =>
    ctx.addIssue({ code: 'custom', path: [path], message });
  const kind = v.authKind ?? (creating ? 'password' : undefined);
  if (v.generateKey && v.privateKey !== undefined) {
    issue('generateKey', 'sshKey.generateOrPaste');
  }
  if (v.passphrase !== undefined && v.privateKey === undefined) {
    issue('passphrase', 'sshKey.passphraseWithoutKey');
  }
  if (kind === 'password') {
    if (v.privateKey !== undefined || v.generateKey) {
      issue('authKind', 'sshKey.keyForPasswordLogin');
    }
    if (v.sudoPassword !== undefined) issue('sudoPassword', 'sshKey.sudoWithKeyOnly');
    if (creating && v.password === undefined) issue('password', 'validation.required');
  }
  if (kind === 'key') {
    if (v.password !== undefined) issue('password', 'sshKey.passwordForKeyLogin');
    if (creating && v.privateKey === undefined && !v.generateKey) {
      issue('privateKey', 'sshKey.keyRequired');
    }
  }
}

export const ZSshServerInput = z
  .object({
    name: ZServerName,
    host: ZServerIp,
    port: ZPort.default(22),
    username: ZSshUser.default('root'),
    description: ZServerDescription.nullable().optional(),
    isActive: z.boolean().default(true),
    ...credentialFields,
  })
  .superRefine((v, ctx) => oneCredential(v, ctx, true));
export type TSshServerInput = z.infer<typeof ZSshServerInput>;

/**
 * A change: only the fields sent. Changing host, port or username clears every saved secret
 * (they go only to the target they were entered for) unless new ones come with it.
 */
export const ZSshServerUpdate = z
  .object({
    name: ZServerName.optional(),
    host: ZServerIp.optional(),
    port: ZPort.optional(),
    username: ZSshUser.optional(),
    description: ZServerDescription.nullable().optional(),
    isActive: z.boolean().optional(),
    ...credentialFields,
  })
  .superRefine((v, ctx) => oneCredential(v, ctx, false));
export type TSshServerUpdate = z.infer<typeof ZSshServerUpdate>;

/** A saved server as the API shows it: secrets only as whether one is saved. */
export const ZSshServer = z.object({
  id: z.string(),
  userId: z.string(),
  /** The owner's username (the admin's list shows everyone's). */
  owner: z.string(),
  name: z.string(),
  host: z.string(),
  port: z.number(),
  username: z.string(),
  authKind: ZSshAuthKind,
  hasPassword: z.boolean(),
  hasPrivateKey: z.boolean(),
  hasPassphrase: z.boolean(),
  hasSudoPassword: z.boolean(),
  /** The `authorized_keys` line of a key Portico generated; null for a pasted key. */
  publicKey: z.string().nullable(),
  hostKeyFingerprint: z.string().nullable(),
  description: z.string().nullable(),
  isActive: z.boolean(),
  lastCheckedAt: z.string().nullable(),
  reachable: z.boolean().nullable(),
  /** What the last successful check read; null before one. */
  facts: ZServerFacts.nullable(),
  proxyCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TSshServer = z.infer<typeof ZSshServer>;

export const ZSshServerList = z.object({
  servers: z.array(ZSshServer),
  /** Pass as `after` for the next page; null on the last one. */
  nextCursor: z.string().nullable(),
});
export type TSshServerList = z.infer<typeof ZSshServerList>;

/**
 * GET /api/ssh-servers: `after` walks the list 200 at a time as `{ servers, nextCursor }`; any
 * of the list parameters (`limit`, `cursor`, `q`: name, host or user) asks for a page in the
 * lists' form (`{ items, nextCursor, total }`), newest first.
 */
export const ZSshServerListQuery = ZPageQuery.extend({
  after: z.string().max(200).optional(),
  /** An admin's page of one account's servers (the edit dialog's choice); a user's own only. */
  userId: z.uuid('validation.invalidId').optional(),
});
export type TSshServerListQuery = z.infer<typeof ZSshServerListQuery>;

export const ZSshServerPage = pageOf(ZSshServer);
export type TSshServerPage = z.infer<typeof ZSshServerPage>;

/**
 * "Check now": the server as stored after the check, and why it could not be reached (a
 * catalog text) when it could not; null when the facts were read.
 */
export const ZSshServerCheck = z.object({
  server: ZSshServer,
  text: ZText.nullable(),
});
export type TSshServerCheck = z.infer<typeof ZSshServerCheck>;

/** What a per-server action did to one proxy on the server; it went on with the next either way. */
export const ZServerActionResult = z.object({
  id: z.string(),
  domain: z.string(),
  ok: z.boolean(),
  /** The run started for this proxy (redeploy all): its log is that deployment's. */
  deploymentId: z.string().nullable(),
  /** Why it did not happen, in the reader's language on the page. */
  text: ZText.nullable(),
});
export type TServerActionResult = z.infer<typeof ZServerActionResult>;

export const ZServerActionReport = z.object({ results: z.array(ZServerActionResult) });
export type TServerActionReport = z.infer<typeof ZServerActionReport>;

/**
 * A per-server action worked in the background ("redeploy all", "check all certificates"): its
 * state, its counts, and a page of what it did to each proxy (`nextAfter` reads the next).
 */
export const ZServerRunKind = z.enum(['redeploy', 'check-certificates']);
export type TServerRunKind = z.infer<typeof ZServerRunKind>;
export const ZServerRunState = z.enum(['queued', 'running', 'done', 'failed', 'timed-out']);
export type TServerRunState = z.infer<typeof ZServerRunState>;

export const ZServerRunResult = z.object({
  position: z.number().int(),
  id: z.string(),
  domain: z.string(),
  outcome: z.enum(['done', 'failed', 'refused']),
  /** The deployment started for this proxy (redeploy all): its log is that deployment's. */
  deploymentId: z.string().nullable(),
  /** Why it failed or was refused, in the reader's language on the page. */
  text: ZText.nullable(),
});
export type TServerRunResult = z.infer<typeof ZServerRunResult>;

export const ZServerRun = z.object({
  id: z.string(),
  sshServerId: z.string(),
  kind: ZServerRunKind,
  state: ZServerRunState,
  done: z.number().int(),
  failed: z.number().int(),
  refused: z.number().int(),
  total: z.number().int(),
  /** Why the run itself ended early (its deadline, a restart). */
  text: ZText.nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  deadlineAt: z.string(),
  results: z.array(ZServerRunResult),
  /** The position to read the next page of results after; null on the last page. */
  nextAfter: z.number().int().nullable(),
});
export type TServerRun = z.infer<typeof ZServerRun>;

export const ZServerRunParams = z.object({
  id: z.uuid('validation.invalidId'),
  runId: z.uuid('validation.invalidId'),
});
export const ZServerRunQuery = z.object({
  after: z.coerce
    .number('validation.list.cursor')
    .int('validation.list.cursor')
    .min(-1, 'validation.list.cursor')
    .max(2_147_483_647, 'validation.list.cursor')
    .default(-1),
});
/** The server's latest run, or null before its first. */
export const ZLatestServerRun = z.object({ run: ZServerRun.nullable() });
export type TLatestServerRun = z.infer<typeof ZLatestServerRun>;

/** "Delete with their sites": each proxy removed as a proxy delete removes it, then the server. */
export const ZDeleteServerWithSitesInput = z.object({
  removeCertificates: z.boolean().default(false),
});
export const ZDeleteServerWithSitesReport = ZServerActionReport.extend({
  /** False while a proxy is left (its removal failed): the server stays, saying which. */
  deleted: z.boolean(),
});
export type TDeleteServerWithSitesReport = z.infer<typeof ZDeleteServerWithSitesReport>;
