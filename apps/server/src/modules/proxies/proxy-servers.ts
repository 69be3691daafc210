import { randomUUID } from 'node:crypto';
import type { TProxyConfigurationRow, TSshServerRow, TUserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { diffFields, type TAuditService } from '../audit/audit.service';
import type { TLimitGuard } from '../limits/limits.service';
import {
  serverTarget,
  sshTargetOf,
  type TServerCredentials,
  type TSshTarget,
} from '../ssh-servers/server-credentials';
import type { TSshServersRepository } from '../ssh-servers/ssh-servers.repository';
import { proxyErrors } from './proxy-errors';

/**
 * A proxy and its saved SSH server (docs/PRODUCT.md#ssh-servers): a proxy on a server takes the
 * server's address, port and user, so `sshServerId` set means the proxy points where the server
 * is, and the server's secrets may be presented for it (server-credentials.ts).
 */

type TActor = Pick<TUserRow, 'id' | 'username' | 'role'>;

/** The proxy columns that put it on a saved server. */
export function onServer(server: TSshServerRow) {
  return {
    serverIp: server.host,
    sshPort: server.port,
    sshUser: server.username,
    sshServerId: server.id,
  };
}

/**
 * The saved server `id` when it is `ownerId`'s; the refusal is the answer of an id that does not
 * exist, so another account's servers are not confirmed.
 */
export async function ownedServer(
  servers: Pick<TSshServersRepository, 'findById'>,
  ownerId: string,
  id: string,
): Promise<TSshServerRow> {
  const server = await servers.findById(id);
  if (!server || server.userId !== ownerId) throw proxyErrors.notFound();
  return server;
}

/** The name a server saved from the wizard's fields gets, as migration 0014 named them. */
export function serverNameOf(target: TSshTarget): string {
  const port = target.sshPort === 22 ? '' : `:${target.sshPort}`;
  return `${target.sshUser}@${target.serverIp}${port}`;
}

export interface TServerSaveScope {
  sshServers: TSshServersRepository;
  audit: TAuditService;
  limits: TLimitGuard;
}

/**
 * The saved server of a proxy typed with the spec's fields and a password, inside the proxy's
 * transaction: the account's server at that very target, else a new one holding the password
 * (sealed for the server and target). At the account's server limit none is saved and the proxy keeps only its
 * own password: the limit counts servers the user chose to keep, not a side effect.
 */
export async function serverForTyped(
  tx: TServerSaveScope,
  secrets: TServerCredentials,
  actor: TActor,
  target: TSshTarget,
  password: string,
): Promise<string | null> {
  const where = { host: target.serverIp, port: target.sshPort, username: target.sshUser };
  const existing = await tx.sshServers.findByTarget(actor.id, where);
  if (existing) return existing.id;
  try {
    await tx.limits.assertRoom(actor.id, 'servers');
  } catch (error) {
    if (error instanceof AppError && error.code === 'limit_reached') return null;
    throw error;
  }
  const id = randomUUID();
  const inserted = await tx.sshServers.insert({
    id,
    userId: actor.id,
    name: serverNameOf(target),
    ...where,
    authKind: 'password',
    passwordEnc: secrets.sealServerSecret(id, 'password', password, target),
  });
  await tx.audit.record(actor, {
    action: 'ssh_server.create',
    targetType: 'ssh_server',
    targetId: id,
    targetOwnerId: actor.id,
    changes: diffFields(
      {} as TSshServerRow,
      inserted,
      ['name', 'host', 'port', 'username', 'authKind', 'passwordEnc'],
      ['passwordEnc'],
    ),
  });
  return id;
}

/** Whether a proxy row points exactly where its saved server is. */
export function pointsAtServer(
  row: Pick<TProxyConfigurationRow, 'serverIp' | 'sshPort' | 'sshUser'>,
  server: TSshServerRow,
): boolean {
  return sshTargetOf(row) === sshTargetOf(serverTarget(server));
}
