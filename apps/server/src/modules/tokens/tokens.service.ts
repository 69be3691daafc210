import { createHash, randomBytes } from 'node:crypto';
import {
  API_TOKEN_PREFIX,
  type TApiToken,
  type TCreatedToken,
  type TCreateTokenInput,
  type TReauthInput,
  type TTokenScope,
} from '@portico/shared/auth/account';
import type { TApiTokenRow, TUserRow } from '../../db/schema';
import type { TTransaction } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { isoTime } from '../../lib/iso-time';
import { accountAudit } from '../audit/account-audit';
import type { TAuditService } from '../audit/audit.service';
import type { TLimitGuard } from '../limits/limits.service';
import type { TTokensRepository } from './tokens.repository';

export type TTokensService = ReturnType<typeof createTokensService>;

/** What a request authenticated by a token carries. */
export interface TTokenCaller {
  id: string;
  userId: string;
  scope: TTokenScope;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** "Last used" is written at most this often per token, not on every request. */
const TOUCH_EVERY_MS = 60_000;
// ptk_ and 43 base64url characters: 256 random bits.
const TOKEN_SHAPE = /^ptk_[A-Za-z0-9_-]{43}$/;

/** SHA-256: a 256-bit random token cannot be guessed from its hash, so no slow hash is needed. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function toView(row: TApiTokenRow): TApiToken {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    hint: row.hint,
    createdAt: isoTime(row.createdAt),
    lastUsedAt: row.lastUsedAt ? isoTime(row.lastUsedAt) : null,
    expiresAt: row.expiresAt ? isoTime(row.expiresAt) : null,
  };
}

/** What a token's change writes: the token row and its audit row, together or not at all. */
export interface TTokenWrites {
  repository: TTokensRepository;
  audit: TAuditService;
  limits: TLimitGuard;
}

export function createTokensService(deps: {
  repository: TTokensRepository;
  transaction: TTransaction<TTokenWrites>;
  /** The password or a second-factor code, checked as for turning two-factor off. */
  confirmIdentity: (user: TUserRow, input: TReauthInput) => Promise<void>;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const lastTouch = new Map<string, number>();

  return {
    /**
     * Only with the password or a code: a session alone (perhaps a stolen one) does not mint a
     * token that would outlive it. The answer is the only place the token ever appears; the
     * database keeps its hash.
     */
    async create(user: TUserRow, input: TCreateTokenInput): Promise<TCreatedToken> {
      await deps.confirmIdentity(user, input);
      const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const expiresAt =
        input.expiresInDays === null ? null : new Date(now() + input.expiresInDays * DAY_MS);
      const row = await deps.transaction(async (tx) => {
        await tx.limits.assertRoom(user.id, 'apiTokens');
        const inserted = await tx.repository.insert({
          userId: user.id,
          name: input.name,
          scope: input.scope,
          tokenHash: tokenHash(token),
          hint: token.slice(0, API_TOKEN_PREFIX.length + 4),
          expiresAt,
        });
        await accountAudit(tx.audit, user, 'account.token_create', {
          changes: [
            { field: 'tokenName', before: null, after: inserted.name },
            { field: 'tokenScope', before: null, after: inserted.scope },
            {
              field: 'tokenExpiresAt',
              before: null,
              after: inserted.expiresAt ? isoTime(inserted.expiresAt) : null,
            },
            { field: 'proof', before: null, after: input.code ? 'code' : 'password' },
          ],
        });
        return inserted;
      });
      return { ...toView(row), token };
    },

    async list(user: TUserRow): Promise<TApiToken[]> {
      return (await deps.repository.listForUser(user.id)).map(toView);
    },

    /** Deleted at once: the next request with it is refused. */
    async revoke(user: TUserRow, id: string): Promise<void> {
      const row = await deps.transaction(async (tx) => {
        const removed = await tx.repository.remove(user.id, id);
        if (!removed) throw new AppError('not_found', 404);
        await accountAudit(tx.audit, user, 'account.token_revoke', {
          changes: [{ field: 'tokenName', before: removed.name, after: null }],
        });
        return removed;
      });
      lastTouch.delete(row.id);
    },

    /** The token's caller, or null: unknown, revoked (deleted) or expired. Never cached. */
    async authenticate(token: string): Promise<TTokenCaller | null> {
      if (!TOKEN_SHAPE.test(token)) return null;
      const row = await deps.repository.findByHash(tokenHash(token));
      if (!row) return null;
      if (row.expiresAt && row.expiresAt.getTime() <= now()) return null;
      return { id: row.id, userId: row.userId, scope: row.scope };
    },

    /** Records a use, at most once a minute per token (a write per request would be waste). */
    async markUsed(id: string): Promise<void> {
      const at = now();
      if (at - (lastTouch.get(id) ?? 0) < TOUCH_EVERY_MS) return;
      if (lastTouch.size > 10_000) lastTouch.clear();
      lastTouch.set(id, at);
      await deps.repository.touch(id, new Date(at));
    },
  };
}
