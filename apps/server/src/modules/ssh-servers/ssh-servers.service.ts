import { randomUUID } from 'node:crypto';
import { asksForPage, PAGE_LIMIT_DEFAULT } from '@portico/shared/lists/page';
import type {
  TSshServer,
  TSshServerInput,
  TSshServerList,
  TSshServerListQuery,
  TSshServerPage,
  TSshServerUpdate,
} from '@portico/shared/ssh-servers/schemas';
import type { TSshServerRow } from '../../db/schema';
import type { TTransaction } from '../../db/transaction';
import { generateKeyPair, PrivateKeyError, readPrivateKey } from '../../deploy/ssh';
import { diffFields, type TAuditService } from '../audit/audit.service';
import type { TLimitGuard } from '../limits/limits.service';
import { loadServer, serverView, type TActor, type TServerOwnerReads } from './server-access';
import { serverTarget, type TServerCredentials, type TSshTarget } from './server-credentials';
import { sshServerErrors } from './ssh-server-errors';
import { toSshServer } from './ssh-server-view';
import type {
  TSshServerListRow,
  TSshServersRepository,
  TSshServerWrite,
} from './ssh-servers.repository';
import { SSH_SERVER_PAGE } from './ssh-servers.repository';

export type { TActor } from './server-access';

/** A change of a server writes its row and its audit row, together or not at all. */
export interface TSshServerWrites {
  repository: TSshServersRepository;
  audit: TAuditService;
  limits: TLimitGuard;
}

export interface TSshServersServiceDeps {
  repository: TSshServersRepository;
  credentials: TServerCredentials;
  transaction: TTransaction<TSshServerWrites>;
  /** The owner's name on a server that is not the caller's (the users module's reads). */
  owners: TServerOwnerReads;
}

export type TSshServersService = ReturnType<typeof createSshServersService>;

const SECRET_COLUMNS = [
  'passwordEnc',
  'privateKeyEnc',
  'passphraseEnc',
  'sudoPasswordEnc',
] as const;
const AUDITED = [
  'name',
  'host',
  'port',
  'username',
  'authKind',
  'description',
  'isActive',
  'publicKey',
  'hostKeyFingerprint',
  ...SECRET_COLUMNS,
] as const;

const cursorOf = (row: TSshServerRow) =>
  Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');

function readCursor(cursor: string | undefined): { createdAt: Date; id: string } | undefined {
  if (!cursor) return undefined;
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (!id || !/^[0-9a-f-]{36}$/.test(id) || Number.isNaN(createdAt.getTime())) return undefined;
  return { createdAt, id };
}

type TCredentialInput = Pick<
  TSshServerUpdate,
  'authKind' | 'password' | 'privateKey' | 'passphrase' | 'sudoPassword' | 'generateKey'
>;

export function createSshServersService(deps: TSshServersServiceDeps) {
  const { repository, credentials, transaction } = deps;

  const load = (actor: TActor, id: string) => loadServer(repository, actor, id);
  const view = (row: TSshServerRow, actor: TActor) =>
    serverView(repository, deps.owners, row, actor);

  /**
   * The secret columns a request writes, sealed for `target`: the key read and checked first
   * (nothing is stored when it is refused), or a pair generated here.
   */
  async function sealCredentials(
    id: string,
    input: TCredentialInput,
    target: TSshTarget,
  ): Promise<TSshServerWrite> {
    const seal = (field: Parameters<TServerCredentials['sealServerSecret']>[1], v: string) =>
      credentials.sealServerSecret(id, field, v, target);
    const changes: TSshServerWrite = {};
    if (input.password !== undefined) {
      Object.assign(changes, {
        authKind: 'password',
        passwordEnc: seal('password', input.password),
        privateKeyEnc: null,
        passphraseEnc: null,
        sudoPasswordEnc: null,
        publicKey: null,
      });
    }
    if (input.privateKey !== undefined) {
      let key: Awaited<ReturnType<typeof readPrivateKey>>;
      try {
        key = await readPrivateKey(input.privateKey, input.passphrase);
      } catch (error) {
        if (error instanceof PrivateKeyError) throw sshServerErrors.badKey(error.problem);
        throw error;
      }
      Object.assign(changes, {
        authKind: 'key',
        passwordEnc: null,
        privateKeyEnc: seal('privateKey', key.privateKey),
        passphraseEnc: input.passphrase === undefined ? null : seal('passphrase', input.passphrase),
        publicKey: null,
      });
    }
    if (input.generateKey) {
      const pair = await generateKeyPair(`portico-${id.slice(0, 8)}`);
      Object.assign(changes, {
        authKind: 'key',
        passwordEnc: null,
        privateKeyEnc: seal('privateKey', pair.privateKey),
        passphraseEnc: null,
        publicKey: pair.publicKey,
      });
    }
    if (input.sudoPassword !== undefined) {
      changes.sudoPasswordEnc = seal('sudoPassword', input.sudoPassword);
    }
    return changes;
  }

  return {
    /** The walk by `after`, or a page of the lists' contract when a list parameter is given. */
    async list(
      actor: TActor,
      query: TSshServerListQuery,
    ): Promise<TSshServerList | TSshServerPage> {
      const { after, userId, ...listParameters } = query;
      // An admin lists everyone's, or one account's; a user only ever their own.
      const owner = actor.role === 'admin' ? userId : actor.id;
      if (asksForPage({ ...listParameters, userId })) {
        const page = await repository.page(owner, {
          ...listParameters,
          limit: listParameters.limit ?? PAGE_LIMIT_DEFAULT,
        });
        return {
          items: page.rows.map((r) => toSshServer(r.server, r.owner, r.proxyCount)),
          nextCursor: page.nextCursor,
          total: page.total,
        };
      }
      const rows: TSshServerListRow[] = await repository.list(owner, readCursor(after));
      const last = rows.at(-1);
      return {
        servers: rows.map((r) => toSshServer(r.server, r.owner, r.proxyCount)),
        nextCursor: rows.length === SSH_SERVER_PAGE && last ? cursorOf(last.server) : null,
      };
    },

    async get(actor: TActor, id: string): Promise<TSshServer> {
      return view(await load(actor, id), actor);
    },

    async create(actor: TActor, input: TSshServerInput): Promise<TSshServer> {
      // The id is chosen first: it is part of the additional data the secrets are sealed with.
      const id = randomUUID();
      const target = serverTarget(input);
      const secrets = await sealCredentials(id, input, target);
      const row = await transaction(async (tx) => {
        await tx.limits.assertRoom(actor.id, 'servers');
        const inserted = await tx.repository.insert({
          id,
          userId: actor.id,
          name: input.name,
          host: input.host,
          port: input.port,
          username: input.username,
          authKind: input.authKind ?? 'password',
          description: input.description ?? null,
          isActive: input.isActive,
          ...secrets,
        });
        await tx.audit.record(actor, {
          action: 'ssh_server.create',
          targetType: 'ssh_server',
          targetId: id,
          targetOwnerId: actor.id,
          changes: diffFields({} as TSshServerRow, inserted, [...AUDITED], [...SECRET_COLUMNS]),
        });
        return inserted;
      });
      return toSshServer(row, actor.username, 0);
    },

    /**
     * A change. Host, port or username elsewhere clears every saved secret (a secret goes only
     * to the target it was entered for) and, for another host or port, the pinned host key.
     * Only the owner enters secrets: an admin's change of another's server stores none.
     */
    async update(actor: TActor, id: string, input: TSshServerUpdate): Promise<TSshServer> {
      const row = await load(actor, id);
      const next = {
        host: input.host ?? row.host,
        port: input.port ?? row.port,
        username: input.username ?? row.username,
      };
      const changes: TSshServerWrite = {};
      for (const field of ['name', 'description', 'isActive'] as const) {
        if (input[field] !== undefined) Object.assign(changes, { [field]: input[field] });
      }
      Object.assign(changes, next);
      const moved =
        next.host !== row.host || next.port !== row.port || next.username !== row.username;
      if (moved) {
        for (const column of SECRET_COLUMNS) changes[column] = null;
      }
      if (next.host !== row.host || next.port !== row.port) changes.hostKeyFingerprint = null;
      if (row.userId === actor.id) {
        Object.assign(changes, await sealCredentials(id, input, serverTarget(next)));
      }
      const updated = await transaction(async (tx) => {
        const written = await tx.repository.update(id, changes);
        if (!written) throw sshServerErrors.notFound();
        await tx.audit.record(actor, {
          action: 'ssh_server.update',
          targetType: 'ssh_server',
          targetId: id,
          targetOwnerId: row.userId,
          changes: diffFields(row, written, [...AUDITED], [...SECRET_COLUMNS]),
        });
        return written;
      });
      return view(updated, actor);
    },

    /** Refused while proxies use it, saying how many (the foreign key holds it too). */
    async remove(actor: TActor, id: string): Promise<void> {
      const row = await load(actor, id);
      const inUse = await repository.proxyCount(id);
      if (inUse > 0) throw sshServerErrors.inUse(inUse);
      await transaction(async (tx) => {
        await tx.repository.delete(id);
        await tx.audit.record(actor, {
          action: 'ssh_server.delete',
          targetType: 'ssh_server',
          targetId: id,
          targetOwnerId: row.userId,
          changes: [{ field: 'name', before: row.name, after: null }],
        });
      });
    },
  };
}
