import { randomUUID } from 'node:crypto';
import type { TLanguage } from '@portico/shared/api-error';
import { asksForPage, PAGE_LIMIT_DEFAULT } from '@portico/shared/lists/page';
import {
  siteHasTraces,
  type TCheckDuplicateResponse,
  type TEditProxyInput,
  type TProxyConfiguration,
  type TProxyListQuery,
  type TProxyPage,
  type TSaveProxyInput,
} from '@portico/shared/proxy/api';
import type { TProxyConfigurationRow, TUserRow } from '../../db/schema';
import type { TTransaction } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { auditRowOf, diffFields, type TAuditService } from '../audit/audit.service';
import type { TLimitGuard } from '../limits/limits.service';
import {
  passwordBoundTo,
  serverTarget,
  sshTargetOf,
  type TSshTarget,
} from '../ssh-servers/server-credentials';
import type { TSshServersRepository } from '../ssh-servers/ssh-servers.repository';
import {
  DomainTakenError,
  type TProxiesRepository,
  type TProxyChanges,
} from './proxies.repository';
import { proxyErrors, refuseAdopted } from './proxy-errors';
import { optionsToStore, targetOf, withoutHashes } from './proxy-options';
import { onServer, ownedServer, serverForTyped } from './proxy-servers';
import { toProxyConfiguration } from './proxy-view';
import { createSiteRemoval, credentialForSite, type TSiteRemovalDeps } from './site-removal';
import { refuseWhileWildcardShared } from './wildcard-holder';

export type TProxiesService = ReturnType<typeof createProxiesService>;
export type TActor = Pick<TUserRow, 'id' | 'username' | 'role'>;

/** What a change of a configuration writes: its row and its audit row, together or not at all. */
export interface TProxyWrites {
  repository: TProxiesRepository;
  /** A proxy typed with the spec's fields saves its server for reuse, in the same transaction. */
  sshServers: TSshServersRepository;
  audit: TAuditService;
  limits: TLimitGuard;
}

export interface TProxiesServiceDeps extends TSiteRemovalDeps {
  /** Saved servers read by id (the proxy's owner's only). */
  sshServers: Pick<TSshServersRepository, 'findById' | 'findByTarget'>;
  transaction: TTransaction<TProxyWrites>;
  /** Told after a status change, so open log sockets see it. */
  onStatus?: (row: TProxyConfigurationRow) => void;
  /** PORTICO_ALLOW_CUSTOM_NGINX: advanced nginx lines may be saved. */
  allowCustomNginx?: boolean;
}

const EDIT_FIELDS = [
  'domain',
  'targetServer',
  'serverIp',
  'sshUser',
  'sshPort',
  'options',
  'sshServerId',
] as const;
const SAVE_FIELDS = [...EDIT_FIELDS, 'email', 'sshPasswordEnc', 'hostKeyFingerprint'] as const;

function isOwnerOrAdmin(row: Pick<TProxyConfigurationRow, 'userId'>, actor: TActor): boolean {
  return row.userId === actor.id || actor.role === 'admin';
}

async function withDomainCheck<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainTakenError) throw proxyErrors.domainTaken();
    throw error;
  }
}

/** Where the spec's typed fields point. */
function typedTarget(input: TSaveProxyInput): TSshTarget {
  return { serverIp: input.serverIp!, sshPort: input.sshPort, sshUser: input.sshUser };
}

export function createProxiesService(deps: TProxiesServiceDeps) {
  const { repository, secrets, transaction } = deps;
  const removeRecordedSite = createSiteRemoval(deps);
  const allowAdvanced = deps.allowCustomNginx ?? false;

  /** The options and target a save or an edit stores: sent options replace the stored ones. */
  function optionChanges(
    input: { options?: TSaveProxyInput['options']; targetServer?: string },
    stored: TProxyConfigurationRow['options'],
  ): Pick<TProxyChanges, 'options' | 'targetServer'> {
    if (!input.options) return {};
    const options = optionsToStore(input.options, stored, allowAdvanced);
    const target = targetOf(input.options);
    return target === undefined ? { options } : { options, targetServer: target };
  }

  /** The row when the actor may see it; 404 otherwise, so ids of others are not confirmed. */
  async function load(
    id: string,
    actor: TActor,
    ownerOnly = false,
  ): Promise<TProxyConfigurationRow> {
    const row = await repository.findById(id);
    if (!row) throw proxyErrors.notFound();
    if (ownerOnly ? row.userId !== actor.id : !isOwnerOrAdmin(row, actor)) {
      throw proxyErrors.notFound();
    }
    return row;
  }

  /**
   * Refuses a domain another configuration uses. One the actor may open (their own; any, for an
   * admin) is domain_taken; another account's is domain_managed, whose words say nothing of whose.
   */
  async function assertDomainFree(actor: TActor, domain: string, excludeId?: string) {
    const holder = await repository.domainHolder(domain, excludeId);
    if (!holder) return;
    throw isOwnerOrAdmin(holder, actor) ? proxyErrors.domainTaken() : proxyErrors.domainManaged();
  }

  async function create(actor: TActor, input: TSaveProxyInput): Promise<string> {
    const server = input.sshServerId
      ? await ownedServer(deps.sshServers, actor.id, input.sshServerId)
      : undefined;
    if (!server && !input.sshPassword) {
      throw new AppError('validation_failed', 400);
    }
    await assertDomainFree(actor, input.domain);
    const options = optionChanges(input, {});
    // The id is chosen first: it is the additional data the password is encrypted with.
    const id = randomUUID();
    return transaction(async (tx) => {
      await tx.limits.assertRoom(actor.id, 'proxies');
      // On a saved server: its address, port, user and pinned key; no password of its own.
      const where = server
        ? { ...onServer(server), hostKeyFingerprint: server.hostKeyFingerprint }
        : {
            serverIp: input.serverIp!,
            sshPort: input.sshPort,
            sshUser: input.sshUser,
            ...secrets.sealPassword(id, input.sshPassword!, typedTarget(input)),
            sshServerId: await serverForTyped(
              tx,
              secrets,
              actor,
              typedTarget(input),
              input.sshPassword!,
            ),
            hostKeyFingerprint: null,
          };
      const row = await withDomainCheck(() =>
        tx.repository.insert({
          id,
          userId: actor.id,
          domain: input.domain,
          ...where,
          hostKeyFingerprint: where.hostKeyFingerprint ?? input.hostKeyFingerprint ?? null,
          email: input.email,
          targetServer: input.targetServer ?? null,
          ...options,
        }),
      );
      await tx.audit.record(actor, {
        action: 'proxy.create',
        targetType: 'proxy_configuration',
        targetId: row.id,
        targetOwnerId: row.userId,
        changes: diffFields(
          {} as Record<string, unknown>,
          withoutHashes(row),
          [...SAVE_FIELDS],
          ['sshPasswordEnc'],
        ),
      });
      return row.id;
    });
  }

  /**
   * The edit dialog's typed address: the proxy stays on its saved server while it points there,
   * and is on none once typed elsewhere. Only choosing a server (or the owner typing a password)
   * puts it on one: a typed edit, an admin's included, never reaches a saved server's secrets.
   */
  function typedEditTarget(row: TProxyConfigurationRow, input: TEditProxyInput) {
    const next = { serverIp: input.serverIp, sshPort: input.sshPort, sshUser: input.sshUser };
    const stays = sshTargetOf(row) === sshTargetOf(next);
    return { ...next, sshServerId: stays ? row.sshServerId : null };
  }

  /** Fields that name another machine: the pinned host key no longer applies to them. */
  function serverChanged(row: TProxyConfigurationRow, next: { serverIp: string; sshPort: number }) {
    return row.serverIp !== next.serverIp || row.sshPort !== next.sshPort;
  }

  /**
   * A saved password is only ever presented to the server, port and user it was entered for:
   * pointing the configuration anywhere else clears it, so the next deployment asks for it again
   * (an edit, an admin's included, can never send it to another machine).
   */
  function unbindPassword(row: TProxyConfigurationRow, next: TSshTarget, changes: TProxyChanges) {
    if (row.sshPasswordEnc !== null && !passwordBoundTo(row, next)) {
      changes.sshPasswordEnc = null;
      changes.sshPasswordTarget = null;
    }
  }

  async function saveExisting(actor: TActor, id: string, input: TSaveProxyInput): Promise<string> {
    const row = await load(id, actor, true);
    if (row.status === 'deploying') throw proxyErrors.deploymentRunning();
    refuseAdopted(row);
    const server = input.sshServerId
      ? await ownedServer(deps.sshServers, actor.id, input.sshServerId)
      : undefined;
    await assertDomainFree(actor, input.domain, id);
    const target = server ? serverTarget(server) : typedTarget(input);
    await refuseWhileWildcardShared(repository, row, {
      domain: input.domain,
      serverIp: target.serverIp,
    });
    const changes: TProxyChanges = {
      domain: input.domain,
      serverIp: target.serverIp,
      sshPort: target.sshPort,
      sshUser: target.sshUser,
      email: input.email,
    };
    if (input.targetServer !== undefined) changes.targetServer = input.targetServer;
    Object.assign(changes, optionChanges(input, row.options));
    if (input.sshPassword)
      Object.assign(changes, secrets.sealPassword(id, input.sshPassword, target));
    else unbindPassword(row, target, changes);
    if (input.hostKeyFingerprint) changes.hostKeyFingerprint = input.hostKeyFingerprint;
    else if (serverChanged(row, target))
      changes.hostKeyFingerprint = server?.hostKeyFingerprint ?? null;
    const sameTarget = sshTargetOf(row) === sshTargetOf(target);
    await transaction(async (tx) => {
      // Typed elsewhere without a password: on no server (its secrets are not reached).
      if (server) changes.sshServerId = server.id;
      else if (input.sshPassword) {
        changes.sshServerId = await serverForTyped(tx, secrets, actor, target, input.sshPassword);
      } else if (!sameTarget) changes.sshServerId = null;
      const updated = await withDomainCheck(() => tx.repository.updateUnlessDeploying(id, changes));
      if (!updated) throw proxyErrors.deploymentRunning();
      await tx.audit.record(actor, {
        action: 'proxy.save',
        targetType: 'proxy_configuration',
        targetId: id,
        targetOwnerId: row.userId,
        changes: diffFields(
          withoutHashes(row),
          withoutHashes(changes),
          [...SAVE_FIELDS],
          ['sshPasswordEnc'],
        ),
      });
    });
    return id;
  }

  /** One field set unless a deployment runs, and its audit row, in one transaction. */
  function updateRecorded(
    actor: TActor,
    row: TProxyConfigurationRow,
    changes: Pick<TProxyChanges, 'status' | 'hostKeyFingerprint'>,
    action: 'proxy.reset' | 'proxy.forget_host_key',
  ): Promise<TProxyConfigurationRow> {
    return transaction(async (tx) => {
      const updated = await tx.repository.updateUnlessDeploying(row.id, changes);
      if (!updated) throw proxyErrors.deploymentRunning();
      await tx.audit.record(actor, {
        action,
        targetType: 'proxy_configuration',
        targetId: row.id,
        targetOwnerId: row.userId,
        changes: diffFields({ ...row }, changes, ['status', 'hostKeyFingerprint']),
      });
      return updated;
    });
  }

  return {
    load,

    /** What an edit would store, for a plan of it (nothing is written). */
    proposedChanges(
      row: TProxyConfigurationRow,
      input: { options?: TSaveProxyInput['options'] },
    ): Pick<TProxyChanges, 'options' | 'targetServer'> {
      return optionChanges(input, row.options);
    },

    save(actor: TActor, input: TSaveProxyInput): Promise<string> {
      return input.configurationId
        ? saveExisting(actor, input.configurationId, input)
        : create(actor, input);
    },

    async get(actor: TActor, id: string, language: TLanguage): Promise<TProxyConfiguration> {
      return toProxyConfiguration(await load(id, actor), language, { withFile: true });
    },

    async listMine(actor: TActor, language: TLanguage): Promise<TProxyConfiguration[]> {
      const views: TProxyConfiguration[] = [];
      // Each part mapped before the next is read: the rows do not all live at once.
      for await (const rows of repository.listByUserInParts(actor.id)) {
        for (const row of rows) views.push(toProxyConfiguration(row, language));
      }
      return views;
    },

    /** The whole list, or one page when the query holds any list parameter. */
    async list(
      actor: TActor,
      query: TProxyListQuery,
      language: TLanguage,
    ): Promise<TProxyConfiguration[] | TProxyPage> {
      if (!asksForPage(query)) return this.listMine(actor, language);
      const limit = query.limit ?? PAGE_LIMIT_DEFAULT;
      const page = await repository.pageByUser(actor.id, { ...query, limit }, new Date());
      return {
        items: page.rows.map((row) => toProxyConfiguration(row, language)),
        nextCursor: page.nextCursor,
        total: page.total,
        counts: page.counts,
      };
    },

    /** The edit dialog. `asAdmin` lets an admin edit anyone's (the admin route); else owner only. */
    async edit(
      actor: TActor,
      id: string,
      input: TEditProxyInput,
      options: { asAdmin?: boolean; language: TLanguage },
    ): Promise<TProxyConfiguration> {
      const row = await load(id, actor, !options.asAdmin);
      if (row.status === 'deploying') throw proxyErrors.deploymentRunning();
      refuseAdopted(row);
      // An unchanged domain (the unique index is on its lower case) was checked when it was set.
      const domainChanged = input.domain.toLowerCase() !== row.domain.toLowerCase();
      if (domainChanged) await assertDomainFree(actor, input.domain, id);
      const server = input.sshServerId
        ? await ownedServer(deps.sshServers, row.userId, input.sshServerId)
        : undefined;
      const { sshServerId: _chosen, options: _sent, ...fields } = input;
      const next = server ? onServer(server) : typedEditTarget(row, input);
      await refuseWhileWildcardShared(repository, row, {
        domain: input.domain,
        serverIp: next.serverIp,
      });
      const changes: TProxyChanges = { ...fields, ...next, ...optionChanges(input, row.options) };
      // Another machine: the chosen server's pin when it has one, else the next contact pins.
      if (serverChanged(row, next)) changes.hostKeyFingerprint = server?.hostKeyFingerprint ?? null;
      unbindPassword(row, next, changes);
      const audit = auditRowOf(actor, {
        action: options.asAdmin ? 'proxy.admin_edit' : 'proxy.edit',
        targetType: 'proxy_configuration',
        targetId: id,
        targetOwnerId: row.userId,
        changes: diffFields(
          withoutHashes(row),
          withoutHashes(changes),
          [...EDIT_FIELDS, 'hostKeyFingerprint', 'sshPasswordEnc'],
          ['sshPasswordEnc'],
        ),
      });
      const edit = {
        ...fields,
        ...next,
        targetServer: changes.targetServer ?? fields.targetServer,
        options: changes.options ?? row.options,
        forgetHostKey: 'hostKeyFingerprint' in changes,
        pinnedHostKey: changes.hostKeyFingerprint ?? null,
        forgetPassword: 'sshPasswordEnc' in changes,
      };
      const updated = await withDomainCheck(() => repository.edit(id, edit, audit));
      if (!updated) throw proxyErrors.deploymentRunning();
      return toProxyConfiguration(updated, options.language);
    },

    /**
     * The wizard's duplicate check: whether another configuration uses the domain, and its id
     * when the actor may open it (as assertDomainFree; another account's stays anonymous).
     */
    async duplicateOf(
      actor: TActor,
      domain: string,
      excludeId?: string,
    ): Promise<TCheckDuplicateResponse> {
      const holder = await repository.domainHolder(domain, excludeId);
      return {
        isDuplicate: holder !== undefined,
        existingId: holder && isOwnerOrAdmin(holder, actor) ? holder.id : null,
      };
    },

    /**
     * Back to pending so it can be deployed again. sslConfigured and the certificate fields are
     * kept: they describe what is on the server, which a reset does not touch.
     */
    async reset(actor: TActor, id: string, language: TLanguage): Promise<TProxyConfiguration> {
      const row = await load(id, actor);
      refuseAdopted(row);
      const updated = await updateRecorded(actor, row, { status: 'pending' }, 'proxy.reset');
      // After the commit: open log sockets are told only what is stored.
      deps.onStatus?.(updated);
      return toProxyConfiguration(updated, language);
    },

    /**
     * Re-pinning (docs/PRODUCT.md#secrets-and-host-keys): clears the pinned host key so the next connection pins the key
     * the server presents then. Only for the owner or an admin, never while a deployment runs.
     */
    async forgetHostKey(
      actor: TActor,
      id: string,
      language: TLanguage,
    ): Promise<TProxyConfiguration> {
      const row = await load(id, actor);
      const updated = await updateRecorded(
        actor,
        row,
        { hostKeyFingerprint: null },
        'proxy.forget_host_key',
      );
      await secrets.forgetServerPin(row);
      return toProxyConfiguration(updated, language);
    },

    async remove(
      actor: TActor,
      id: string,
      options: { removeFromServer: boolean; removeCertificate: boolean; language?: TLanguage },
    ): Promise<{ removedFromServer: boolean }> {
      const row = await load(id, actor);
      if (row.status === 'deploying') throw proxyErrors.deploymentRunning();
      await refuseWhileWildcardShared(repository, row);
      let removedFromServer = false;
      // What was written to a server, whatever the status says (a reset or a failed run). An
      // adopted site's file is the user's: deleting it in Portico forgets the record only.
      const sites = row.origin === 'adopted' ? [] : row.serverSites.filter(siteHasTraces);
      if (options.removeFromServer && sites.length > 0) {
        // All refused before any server is contacted when one of them has no password for it.
        for (const site of sites) await credentialForSite(secrets, row, site);
        for (const site of sites) {
          await removeRecordedSite(row, site, options.removeCertificate, options.language);
        }
        removedFromServer = true;
      }
      await transaction(async (tx) => {
        await tx.repository.remove(id);
        await tx.audit.record(actor, {
          action: removedFromServer ? 'proxy.delete_with_removal' : 'proxy.delete',
          targetType: 'proxy_configuration',
          targetId: id,
          targetOwnerId: row.userId,
          changes: [{ field: 'domain', before: row.domain, after: null }],
        });
      });
      return { removedFromServer };
    },
  };
}
