import { randomUUID } from 'node:crypto';
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  SERVER_SECRET_FIELDS,
  type TExportDocument,
  type TExportInput,
  type TExportProxy,
  type TExportServer,
  type TImportInput,
  type TImportReport,
} from '@portico/shared/transfer/schemas';
import type { TNewProxyConfigurationRow, TNewSshServerRow, TUserRow } from '../../db/schema';
import type { TTransaction } from '../../db/transaction';
import { FieldsAppError, KeyedAppError } from '../../lib/app-error';
import type { TAuditService } from '../audit/audit.service';
import type { TLimitGuard } from '../limits/limits.service';
import {
  serverTarget,
  sshTargetOf,
  type TServerCredentials,
} from '../ssh-servers/server-credentials';
import { ImportDomainTakenError, type TTransferRepository } from './transfer.repository';
import {
  openerFor,
  proxyPasswordLabel,
  sealerFor,
  serverSecretLabel,
  type TOpener,
  type TSealer,
} from './transfer-seal';

export type TTransferService = ReturnType<typeof createTransferService>;
type TActor = Pick<TUserRow, 'id' | 'username'>;

/** An import's writes: its rows, the account's limits, its audit row, together or not at all. */
export interface TTransferWrites {
  repository: TTransferRepository;
  limits: TLimitGuard;
  audit: TAuditService;
}

/** How many taken domains a refusal names (the count says how many in all). */
const DOMAINS_NAMED = 5;

function domainsTaken(domains: string[]): KeyedAppError {
  const named = domains.slice(0, DOMAINS_NAMED).join(', ');
  return new KeyedAppError('import_domains_taken', 409, 'errors.importDomainsTaken', {
    domains: domains.length > DOMAINS_NAMED ? `${named}, …` : named,
    count: domains.length,
  });
}

/**
 * Export and import of one account's saved servers and proxies (docs/PRODUCT.md#export-and-import):
 * the export is written as it is read, a batch at a time; the import is checked whole, then
 * written in one transaction.
 */
export function createTransferService(deps: {
  repository: TTransferRepository;
  credentials: TServerCredentials;
  transaction: TTransaction<TTransferWrites>;
  audit: TAuditService;
  /** PORTICO_ALLOW_CUSTOM_NGINX: imported advanced nginx lines are refused without it. */
  allowCustomNginx?: boolean;
  now?: () => Date;
}) {
  const { repository, credentials } = deps;
  const now = deps.now ?? (() => new Date());

  function exportServer(
    row: Parameters<TServerCredentials['openServerSecrets']>[0],
    sealer: TSealer | null,
  ): TExportServer {
    const entry: TExportServer = {
      ref: row.id,
      name: row.name,
      host: row.host,
      port: row.port,
      username: row.username,
      authKind: row.authKind,
      description: row.description,
      isActive: row.isActive,
      publicKey: row.publicKey,
      hostKeyFingerprint: row.hostKeyFingerprint,
    };
    if (!sealer) return entry;
    const target = sshTargetOf(serverTarget(row));
    const secrets = Object.entries(credentials.openServerSecrets(row)).map(([field, value]) => [
      field,
      sealer.seal(value, serverSecretLabel(row.id, field, target)),
    ]);
    return secrets.length > 0 ? { ...entry, secrets: Object.fromEntries(secrets) } : entry;
  }

  async function* exportLines(userId: string, sealer: TSealer | null): AsyncGenerator<string> {
    const head = {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exportedAt: now().toISOString(),
      sealing: sealer?.sealing ?? null,
    };
    yield `${JSON.stringify(head).slice(0, -1)},\n"servers":[`;
    let first = true;
    for await (const batch of repository.servers(userId)) {
      const text = batch.map((row) => JSON.stringify(exportServer(row, sealer))).join(',\n');
      yield `${first ? '\n' : ',\n'}${text}`;
      first = false;
    }
    yield '\n],\n"proxies":[';
    first = true;
    for await (const batch of repository.proxies(userId)) {
      const text = batch
        .map((row) => {
          const entry: TExportProxy = {
            domain: row.domain,
            serverIp: row.serverIp,
            sshPort: row.sshPort,
            sshUser: row.sshUser,
            email: row.email,
            targetServer: row.targetServer,
            options: row.options,
            server: row.sshServerId,
            hostKeyFingerprint: row.hostKeyFingerprint,
          };
          const password = sealer ? credentials.openProxyPassword(row) : undefined;
          if (sealer && password !== undefined) {
            entry.password = sealer.seal(
              password,
              proxyPasswordLabel(row.domain, sshTargetOf(row)),
            );
          }
          return JSON.stringify(entry);
        })
        .join(',\n');
      yield `${first ? '\n' : ',\n'}${text}`;
      first = false;
    }
    yield '\n]}\n';
  }

  /** The document's rows for this account, new ids, secrets opened and sealed again here. */
  function importRows(actor: TActor, doc: TExportDocument, opener: TOpener | null) {
    const serverIds = new Map<string, string>();
    let secrets = 0;
    // Oldest first in the document: each row a millisecond apart keeps the lists' order.
    const start = now().getTime() - doc.servers.length - doc.proxies.length;
    const servers: TNewSshServerRow[] = doc.servers.map((s, i) => {
      const id = randomUUID();
      serverIds.set(s.ref, id);
      const target = serverTarget(s);
      const sealed: Partial<Record<string, string>> = {};
      for (const field of SERVER_SECRET_FIELDS) {
        const value = s.secrets?.[field];
        if (value === undefined || !opener) continue;
        const clear = opener.open(value, serverSecretLabel(s.ref, field, sshTargetOf(target)));
        sealed[field] = credentials.sealServerSecret(id, field, clear, target);
        secrets += 1;
      }
      return {
        id,
        userId: actor.id,
        name: s.name,
        host: s.host,
        port: s.port,
        username: s.username,
        authKind: s.authKind,
        passwordEnc: sealed.password ?? null,
        privateKeyEnc: sealed.privateKey ?? null,
        passphraseEnc: sealed.passphrase ?? null,
        sudoPasswordEnc: sealed.sudoPassword ?? null,
        publicKey: s.publicKey,
        hostKeyFingerprint: s.hostKeyFingerprint,
        description: s.description,
        isActive: s.isActive,
        createdAt: new Date(start + i),
      };
    });
    const proxies: TNewProxyConfigurationRow[] = doc.proxies.map((p, i) => {
      const id = randomUUID();
      const target = { serverIp: p.serverIp, sshPort: p.sshPort, sshUser: p.sshUser };
      let password = {};
      if (p.password !== undefined && opener) {
        const clear = opener.open(p.password, proxyPasswordLabel(p.domain, sshTargetOf(target)));
        password = credentials.sealPassword(id, clear, target);
        secrets += 1;
      }
      return {
        id,
        userId: actor.id,
        domain: p.domain,
        ...target,
        ...password,
        sshServerId: p.server === null ? null : serverIds.get(p.server)!,
        hostKeyFingerprint: p.hostKeyFingerprint,
        email: p.email,
        targetServer: p.targetServer,
        options: p.options,
        createdAt: new Date(start + doc.servers.length + i),
      };
    });
    return { servers, proxies, secrets };
  }

  return {
    /** The account's servers and proxies as JSON text, written while read; audited first. */
    async exportFor(actor: TActor, input: TExportInput): Promise<AsyncGenerator<string>> {
      const sealer = await sealerFor(input.passphrase);
      await deps.audit.record(actor, {
        action: 'account.export',
        targetType: 'user',
        targetId: actor.id,
        targetOwnerId: actor.id,
        changes: [{ field: 'exportSecrets', before: null, after: sealer !== null }],
      });
      return exportLines(actor.id, sealer);
    },

    /** Everything checked first (the schema, the passphrase, the domains, the limits); then all or nothing. */
    async importFor(actor: TActor, input: TImportInput): Promise<TImportReport> {
      const doc = input.document;
      if (!deps.allowCustomNginx) {
        const issues = doc.proxies.flatMap((p, i) =>
          p.options.advanced === undefined
            ? []
            : [
                {
                  path: `document.proxies.${i}.options.advanced`,
                  key: 'proxyOptions.invalid.advancedDisabled',
                },
              ],
        );
        if (issues.length > 0) throw new FieldsAppError(issues);
      }
      const opener = await openerFor(doc.sealing, input.passphrase);
      const taken = await repository.domainsTaken(doc.proxies.map((p) => p.domain));
      if (taken.length > 0) throw domainsTaken(taken);
      const rows = importRows(actor, doc, opener);
      try {
        await deps.transaction(async (tx) => {
          await tx.limits.assertRoom(actor.id, 'servers', rows.servers.length);
          await tx.limits.assertRoom(actor.id, 'proxies', rows.proxies.length);
          await tx.repository.insertServers(rows.servers);
          await tx.repository.insertProxies(rows.proxies);
          await tx.audit.record(actor, {
            action: 'account.import',
            targetType: 'user',
            targetId: actor.id,
            targetOwnerId: actor.id,
            changes: [
              { field: 'importedServers', before: null, after: rows.servers.length },
              { field: 'importedProxies', before: null, after: rows.proxies.length },
            ],
          });
        });
      } catch (error) {
        // Another account took one of the domains since they were checked: named after the rollback.
        if (!(error instanceof ImportDomainTakenError)) throw error;
        throw domainsTaken(await repository.domainsTaken(doc.proxies.map((p) => p.domain)));
      }
      return { servers: rows.servers.length, proxies: rows.proxies.length, secrets: rows.secrets };
    },
  };
}
