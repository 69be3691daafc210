import type { TDb } from '../../db/client';
import type { TReadsOver } from '../../db/reads-over';
import { secretAad } from '../../lib/secrets';
import { customCertificateKeyAad } from '../certificates/custom-certificate-secret';
import { dnsChallengeAad } from '../certificates/dns-challenge-secret';
import {
  serverSecretAad,
  type TServerSecretField,
  type TSshTarget,
} from '../ssh-servers/server-credentials';

/**
 * Where an encrypted value lives: an SSH password, an account's two-factor secret, the
 * account's alert webhook URL, a saved server's secrets, an uploaded certificate's key, or a
 * proxy's DNS provider credentials.
 */
export type TSecretKind =
  | 'proxy'
  | 'user'
  | 'webhook'
  | 'sshServer'
  | 'customCertificate'
  | 'dnsChallenge';

/** One encrypted value as stored, with what names it (its row id is its additional data). */
export interface TStoredSecret {
  kind: TSecretKind;
  id: string;
  /** For messages: the configuration's domain or the account's username. */
  label: string;
  stored: string;
  /** A saved server's secret: which column, and the target it is bound to. */
  server?: { field: TServerSecretField; target: TSshTarget };
  /** DNS credentials: the server address they are bound to. */
  boundTo?: string;
}

/** The additional data each value was encrypted with: its row and column. */
export function storedSecretAad(
  secret: Pick<TStoredSecret, 'kind' | 'id' | 'server' | 'boundTo'>,
): string {
  if (secret.kind === 'sshServer' && secret.server) {
    return serverSecretAad(secret.id, secret.server.field, secret.server.target);
  }
  if (secret.kind === 'proxy') return secretAad('proxy', secret.id, 'sshPassword');
  if (secret.kind === 'webhook') return secretAad('user', secret.id, 'webhookUrl');
  if (secret.kind === 'customCertificate') return customCertificateKeyAad(secret.id);
  if (secret.kind === 'dnsChallenge') return dnsChallengeAad(secret.id, secret.boundTo ?? '');
  return secretAad('user', secret.id, 'totpSecret');
}

const SERVER_FIELDS: TServerSecretField[] = [
  'password',
  'privateKey',
  'passphrase',
  'sudoPassword',
];

export class SecretChangedDuringRotationError extends Error {
  constructor(readonly id: string) {
    super(`The secret of ${id} changed while the key was being rotated.`);
    this.name = 'SecretChangedDuringRotationError';
  }
}

export type TSecretsRepository = ReturnType<typeof createSecretsRepository>;

export interface TSecretChange {
  kind: TSecretKind;
  id: string;
  /** For a saved server: which of its columns (and its target, as listed). */
  server?: TStoredSecret['server'];
  previous: string;
  next: string;
}

type TNamedSecret = { id: string; label: string; stored: string };

/** What the rotation asks of the proxies module (services.ts or the CLI hands its reads over). */
export interface TSecretsProxyReads {
  sealedPasswords(): Promise<(Omit<TNamedSecret, 'stored'> & { stored: string | null })[]>;
  sealedCertificateKeys(): Promise<TNamedSecret[]>;
  sealedDnsCredentials(): Promise<(TNamedSecret & { boundTo: string })[]>;
  resealPassword(id: string, previous: string, next: string): Promise<boolean>;
}

/** What the rotation asks of the saved servers module. */
export interface TSecretsServerReads {
  sealedSecrets(): Promise<
    ({ id: string; label: string; host: string; port: number; username: string } & Record<
      TServerSecretField,
      string | null
    >)[]
  >;
  resealSecret(
    id: string,
    field: TServerSecretField,
    previous: string,
    next: string,
  ): Promise<boolean>;
}

/** What the rotation asks of the notifications module. */
export interface TSecretsNotificationReads {
  sealedWebhooks(): Promise<(Omit<TNamedSecret, 'stored'> & { stored: string | null })[]>;
  resealWebhook(userId: string, previous: string, next: string): Promise<boolean>;
}

/** What the rotation asks of the certificates module. */
export interface TSecretsCertificateReads {
  resealCertificateKey(configurationId: string, previous: string, next: string): Promise<boolean>;
  resealDnsCredentials(configurationId: string, previous: string, next: string): Promise<boolean>;
}

/** What the rotation asks of the users module. */
export interface TSecretsUserReads {
  sealedTotpSecrets(): Promise<(Omit<TNamedSecret, 'stored'> & { stored: string | null })[]>;
  resealTotpSecret(userId: string, previous: string, next: string): Promise<boolean>;
}

/** The owners' reads the rotation asks, each built over a handle (services.ts or the CLI). */
export type TSecretsReadsOver = TReadsOver<{
  proxies: TSecretsProxyReads;
  servers: TSecretsServerReads;
  notifications: TSecretsNotificationReads;
  certificates: TSecretsCertificateReads;
  users: TSecretsUserReads;
}>;

/**
 * Every column that holds a secret encrypted with the key file: the SSH passwords of the
 * configurations, the two-factor secrets and webhook URLs of the accounts, the saved servers'
 * secrets, the uploaded certificates' private keys and the proxies' DNS credentials.
 * `over` builds the owners' reads over a handle: the app's, or the rotation's transaction.
 */
export function createSecretsRepository(db: TDb, over: TSecretsReadsOver) {
  return {
    async listSecrets(): Promise<TStoredSecret[]> {
      const proxyReads = over.proxies(db);
      const proxies = await proxyReads.sealedPasswords();
      const accounts = await over.users(db).sealedTotpSecrets();
      const webhooks = await over.notifications(db).sealedWebhooks();
      const certificateKeys = await proxyReads.sealedCertificateKeys();
      const dnsCredentials = await proxyReads.sealedDnsCredentials();
      const servers = await over.servers(db).sealedSecrets();
      const serverSecrets = servers.flatMap((r) => {
        const target = { serverIp: r.host, sshPort: r.port, sshUser: r.username };
        return SERVER_FIELDS.filter((field) => r[field] !== null).map((field) => ({
          kind: 'sshServer' as const,
          id: r.id,
          label: r.label,
          stored: r[field]!,
          server: { field, target },
        }));
      });
      return [
        ...serverSecrets,
        ...proxies.map((r) => ({ kind: 'proxy' as const, ...r, stored: r.stored! })),
        ...accounts.map((r) => ({ kind: 'user' as const, ...r, stored: r.stored! })),
        ...webhooks.map((r) => ({ kind: 'webhook' as const, ...r, stored: r.stored! })),
        ...certificateKeys.map((r) => ({ kind: 'customCertificate' as const, ...r })),
        ...dnsCredentials.map((r) => ({ kind: 'dnsChallenge' as const, ...r })),
      ];
    },

    /**
     * Replaces every value in one transaction, each only if it still holds what was read: all
     * rows move to the new key or none do.
     */
    async replaceSecrets(changes: TSecretChange[]): Promise<void> {
      await db.transaction(async (tx) => {
        const proxies = over.proxies(tx);
        const servers = over.servers(tx);
        const notifications = over.notifications(tx);
        const certificates = over.certificates(tx);
        const accounts = over.users(tx);
        // Each kind's reseal: true when the row still held what was read, and now holds `next`.
        const reseal: Record<TSecretKind, (change: TSecretChange) => Promise<boolean>> = {
          sshServer: (c) => servers.resealSecret(c.id, c.server!.field, c.previous, c.next),
          customCertificate: (c) => certificates.resealCertificateKey(c.id, c.previous, c.next),
          dnsChallenge: (c) => certificates.resealDnsCredentials(c.id, c.previous, c.next),
          proxy: (c) => proxies.resealPassword(c.id, c.previous, c.next),
          webhook: (c) => notifications.resealWebhook(c.id, c.previous, c.next),
          user: (c) => accounts.resealTotpSecret(c.id, c.previous, c.next),
        };
        for (const change of changes) {
          if (!(await reseal[change.kind](change))) {
            throw new SecretChangedDuringRotationError(change.id);
          }
        }
      });
    },
  };
}
