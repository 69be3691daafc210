import type { TDb } from '../../db/client';
import { type TTransaction, transactionOver } from '../../db/transaction';
import { createAuditRepository } from '../audit/audit.repository';
import { createAuditService } from '../audit/audit.service';
import { createSessionsRepository } from '../sessions/sessions.repository';
import { createTokensRepository } from '../tokens/tokens.repository';
import { createRecoveryCodesRepository } from '../two-factor/recovery-codes.repository';
import type { TTwoFactorWrites } from '../two-factor/two-factor.service';
import type { TUsersRepository } from '../users/users.repository';
import { createUsersService } from '../users/users.service';
import type { TAccountWrites } from './account.service';

/**
 * Everything an account change may write in one transaction: what account, two-factor and
 * sessions need (a new password or second factor also revokes API tokens).
 */
export type TAccountTransaction = TTransaction<TAccountWrites & TTwoFactorWrites>;

/**
 * One transaction over the account's tables. The users table is `users.within(tx)`, so a
 * committed write drops the app's cached row and a rolled-back one leaves nothing cached.
 */
export function accountTransaction(
  db: TDb,
  users: { within(tx: TDb): TUsersRepository },
): TAccountTransaction {
  return transactionOver(db, (tx) => ({
    users: createUsersService(users.within(tx)),
    audit: createAuditService(createAuditRepository(tx)),
    recoveryCodes: createRecoveryCodesRepository(tx),
    sessions: createSessionsRepository(tx),
    tokens: createTokensRepository(tx),
  }));
}
