import {
  LIMIT_KINDS,
  type TLimitKind,
  type TLimits,
  type TUserLimits,
  type TUserLimitsChange,
} from '@portico/shared/admin/limits';
import type { TTransaction } from '../../db/transaction';
import { AppError, KeyedAppError } from '../../lib/app-error';
import type { TAuditActor, TAuditService } from '../audit/audit.service';
import type { TLimitsRepository } from './limits.repository';

/** What the limit of `kind` is for one account: its own, else the configured default. */
async function limitOf(
  repository: TLimitsRepository,
  defaults: TLimits,
  userId: string,
  kind: TLimitKind,
): Promise<{ limit: number; custom: boolean }> {
  const own = (await repository.overrides(userId))?.[kind];
  return own === null || own === undefined
    ? { limit: defaults[kind], custom: false }
    : { limit: own, custom: true };
}

/** 409 `limit_reached`, its words naming what is full and how many the account may hold. */
export function limitReached(kind: TLimitKind, limit: number): AppError {
  return new KeyedAppError('limit_reached', 409, `errors.limitReached.${kind}`, { limit, kind });
}

export type TLimitGuard = ReturnType<typeof createLimitGuard>;

/**
 * The check a create runs inside its own transaction, before its insert: the account's row is
 * locked, then its rows are counted, so of two creates racing at one below the limit the second
 * counts after the first committed and is refused.
 */
export function createLimitGuard(repository: TLimitsRepository, defaults: TLimits) {
  return {
    /** Throws `limit_reached` when `adding` more of `kind` would pass the account's limit. */
    async assertRoom(userId: string, kind: TLimitKind, adding = 1): Promise<void> {
      if (adding <= 0) return;
      await repository.lockAccount(userId);
      const { limit } = await limitOf(repository, defaults, userId, kind);
      const used = await repository.count(userId, kind);
      if (used + adding > limit) throw limitReached(kind, limit);
    },
  };
}

export interface TLimitWrites {
  repository: TLimitsRepository;
  audit: TAuditService;
}

export type TLimitsService = ReturnType<typeof createLimitsService>;

/** An admin's reading and setting of one account's limits (docs/PRODUCT.md#limits). */
export function createLimitsService(deps: {
  repository: TLimitsRepository;
  transaction: TTransaction<TLimitWrites>;
  defaults: TLimits;
}) {
  async function view(repository: TLimitsRepository, userId: string): Promise<TUserLimits> {
    const entries = await Promise.all(
      LIMIT_KINDS.map(async (kind) => {
        const { limit, custom } = await limitOf(repository, deps.defaults, userId, kind);
        return [kind, { limit, custom, used: await repository.count(userId, kind) }] as const;
      }),
    );
    return Object.fromEntries(entries) as TUserLimits;
  }

  return {
    async forUser(userId: string): Promise<TUserLimits> {
      if (!(await deps.repository.userExists(userId))) throw new AppError('not_found', 404);
      return view(deps.repository, userId);
    },

    /** Sets the kinds given (null: back to the default), with an audit row of what moved. */
    async change(
      actor: TAuditActor,
      userId: string,
      change: TUserLimitsChange,
    ): Promise<TUserLimits> {
      return deps.transaction(async (tx) => {
        if (!(await tx.repository.lockAccount(userId))) throw new AppError('not_found', 404);
        const before = await tx.repository.overrides(userId);
        const changes = LIMIT_KINDS.filter(
          (kind) => change[kind] !== undefined && (before?.[kind] ?? null) !== change[kind],
        ).map((kind) => ({ field: kind, before: before?.[kind] ?? null, after: change[kind] }));
        if (changes.length > 0) {
          await tx.repository.setOverrides(userId, change);
          await tx.audit.record(actor, {
            action: 'admin.user.limits',
            targetType: 'user',
            targetId: userId,
            targetOwnerId: userId,
            changes,
          });
        }
        return view(tx.repository, userId);
      });
    },
  };
}
