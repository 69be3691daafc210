import type {
  TReauthInput,
  TTwoFactorConfirmed,
  TTwoFactorSetup,
  TTwoFactorStatus,
} from '@portico/shared/auth/account';
import type { TUserRow } from '../../db/schema';
import type { TTransaction } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import {
  SecretDecryptError,
  SecretKeyError,
  secretAad,
  type TSecretBox,
  type TSecretBoxLoader,
} from '../../lib/secrets';
import { matchTotp, newTotpSecret, otpauthUrl } from '../../lib/totp';
import { accountAudit } from '../audit/account-audit';
import type { TAuditService } from '../audit/audit.service';
import type { TSessionsRepository } from '../sessions/sessions.repository';
import {
  endedElsewhereChanges,
  type TAccountSessions,
  type TElsewhereWrites,
  type TSessionCaller,
} from '../sessions/sessions.service';
import { type TTwoFactorPolicy, twoFactorRequired } from '../users/two-factor-policy';
import type { TUsersService } from '../users/users.service';
import { newRecoveryCode, RECOVERY_CODE_COUNT, recoveryCodeHash } from './recovery-codes';
import type { TRecoveryCodesRepository } from './recovery-codes.repository';

export type TTwoFactorService = ReturnType<typeof createTwoFactorService>;

/**
 * What a two-factor change writes: the user row, the recovery codes, the audit row and, for a
 * reset or turning it on, the account's sessions (and, turning it on, its tokens).
 */
export interface TTwoFactorWrites extends TElsewhereWrites {
  users: TUsersService;
  recoveryCodes: TRecoveryCodesRepository;
  audit: TAuditService;
  sessions: TSessionsRepository;
}

export interface TTwoFactorDeps {
  users: TUsersService;
  recoveryCodes: TRecoveryCodesRepository;
  transaction: TTransaction<TTwoFactorWrites>;
  /** Turning it on ends the other sessions through these (their sockets close after the commit). */
  sessions: Pick<TAccountSessions, 'endElsewhere' | 'ended'>;
  /** The key file's box, which also encrypts SSH passwords (lib/secrets.ts). */
  secretBox: TSecretBoxLoader;
  policy: TTwoFactorPolicy;
  now?: () => number;
}

/** Which proof a second factor was: an authenticator code or a recovery code. */
export type TSecondFactor = 'totp' | 'recovery';

const totpAad = (userId: string) => secretAad('user', userId, 'totpSecret');

export function createTwoFactorService(deps: TTwoFactorDeps) {
  const now = deps.now ?? Date.now;

  function secretBox(): TSecretBox {
    try {
      return deps.secretBox();
    } catch (error) {
      if (error instanceof SecretKeyError) throw new AppError('two_factor_secret_unreadable', 500);
      throw error;
    }
  }

  function secretOf(user: TUserRow): string {
    try {
      return secretBox().decrypt(user.totpSecretEnc!, totpAad(user.id));
    } catch (error) {
      if (error instanceof SecretDecryptError) {
        throw new AppError('two_factor_secret_unreadable', 500);
      }
      throw error;
    }
  }

  /** The row as stored now: two-factor decisions never rest on a copy a request carried. */
  async function fresh(user: TUserRow): Promise<TUserRow> {
    const row = await deps.users.findById(user.id);
    if (!row) throw new AppError('unauthenticated', 401);
    return row;
  }

  async function issueRecoveryCodes(tx: TTwoFactorWrites, user: TUserRow): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await tx.recoveryCodes.replace(
      user.id,
      codes.map((code) => recoveryCodeHash(user.id, code)),
    );
    return codes;
  }

  /**
   * Checks an authenticator code (each time step accepted once: a replayed code fails) or an
   * unused recovery code (used up by this call). Null when neither.
   */
  async function check(
    user: TUserRow,
    code: string,
    writes: Pick<TTwoFactorWrites, 'users' | 'recoveryCodes'> = deps,
  ): Promise<TSecondFactor | null> {
    if (user.totpEnabledAt === null || !user.totpSecretEnc) return null;
    if (/^\d{6}$/.test(code)) {
      const step = matchTotp(secretOf(user), code, now());
      if (step === null) return null;
      return (await writes.users.claimTotpStep(user.id, step)) ? 'totp' : null;
    }
    return (await writes.recoveryCodes.use(user.id, recoveryCodeHash(user.id, code)))
      ? 'recovery'
      : null;
  }

  /** A code or the password, as turning two-factor off and new recovery codes ask for. */
  async function reauthenticate(user: TUserRow, input: TReauthInput): Promise<void> {
    if (input.code !== undefined) {
      if (!(await check(user, input.code))) throw new AppError('two_factor_invalid', 400);
      return;
    }
    if (!(await deps.users.checkPassword(user, input.password ?? ''))) {
      throw new AppError('wrong_password', 400);
    }
  }

  /** The secret, the last step and every recovery code go: two-factor is off. */
  async function turnOff(tx: TTwoFactorWrites, userId: string): Promise<void> {
    await tx.users.update(userId, { totpSecretEnc: null, totpEnabledAt: null, totpLastStep: null });
    await tx.recoveryCodes.removeAll(userId);
  }

  async function requireEnabled(user: TUserRow): Promise<TUserRow> {
    const row = await fresh(user);
    if (row.totpEnabledAt === null) throw new AppError('two_factor_off', 409);
    return row;
  }

  return {
    /**
     * The second step of signing in. A recovery code used up and its audit row are one
     * transaction: a code is never spent without the trail saying so.
     */
    async signIn(user: TUserRow, code: string): Promise<TSecondFactor | null> {
      const row = await fresh(user);
      return deps.transaction(async (tx) => {
        const factor = await check(row, code, tx);
        if (factor === 'recovery') await accountAudit(tx.audit, row, 'account.recovery_code_used');
        return factor;
      });
    },

    async status(user: TUserRow): Promise<TTwoFactorStatus> {
      const row = await fresh(user);
      return {
        enabled: row.totpEnabledAt !== null,
        enabledAt: row.totpEnabledAt?.toISOString() ?? null,
        recoveryCodesLeft:
          row.totpEnabledAt === null ? 0 : await deps.recoveryCodes.countUnused(row.id),
        required: twoFactorRequired(row, deps.policy),
      };
    },

    /**
     * A new secret, kept (encrypted) but not in force until a first code confirms it. This answer
     * is the only one that ever carries the secret; starting again replaces it.
     */
    async beginSetup(user: TUserRow): Promise<TTwoFactorSetup> {
      const row = await fresh(user);
      if (row.totpEnabledAt !== null) throw new AppError('two_factor_on', 409);
      const secret = newTotpSecret();
      await deps.users.update(row.id, {
        totpSecretEnc: secretBox().encrypt(secret, totpAad(row.id)),
        totpLastStep: null,
      });
      const url = otpauthUrl(secret, row.username);
      // Loaded at the first setup: most instances never draw a QR code.
      const { default: encodeQR } = await import('qr');
      const svg = encodeQR(url, 'svg', { ecc: 'medium', border: 2 });
      return {
        secret,
        otpauthUrl: url,
        qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
      };
    },

    /**
     * The first code proves the app holds the secret: two-factor is on, ten codes are issued.
     * Every other session ends and, unless kept, every API token: they were got with the
     * password alone, which may be what leaked.
     */
    async confirmSetup(
      caller: TSessionCaller,
      input: { code: string; revokeTokens: boolean },
    ): Promise<TTwoFactorConfirmed> {
      const row = await fresh(caller.user);
      if (row.totpEnabledAt !== null) throw new AppError('two_factor_on', 409);
      if (!row.totpSecretEnc) throw new AppError('two_factor_not_started', 409);
      const step = matchTotp(secretOf(row), input.code, now());
      if (step === null) throw new AppError('two_factor_invalid', 400);
      const done = await deps.transaction(async (tx) => {
        // Claimed inside: a failed write after it leaves the code usable again.
        if (!(await tx.users.claimTotpStep(row.id, step))) {
          throw new AppError('two_factor_invalid', 400);
        }
        const enabled = await tx.users.update(row.id, { totpEnabledAt: new Date(now()) });
        const codes = await issueRecoveryCodes(tx, enabled);
        const ended = await deps.sessions.endElsewhere(tx, caller, input.revokeTokens);
        await accountAudit(tx.audit, row, 'account.two_factor_on', {
          changes: endedElsewhereChanges(ended),
        });
        return { codes, ended };
      });
      await deps.sessions.ended(caller, done.ended.sids);
      return {
        recoveryCodes: done.codes,
        endedSessions: done.ended.sids.length,
        revokedTokens: done.ended.revokedTokens,
      };
    },

    /** A code or the password, read against the account as stored now (creating a token). */
    async confirmIdentity(user: TUserRow, input: TReauthInput): Promise<void> {
      await reauthenticate(await fresh(user), input);
    },

    async disable(user: TUserRow, input: TReauthInput): Promise<void> {
      const row = await requireEnabled(user);
      await reauthenticate(row, input);
      await deps.transaction(async (tx) => {
        await turnOff(tx, row.id);
        await accountAudit(tx.audit, row, 'account.two_factor_off', {
          changes: [{ field: 'proof', before: null, after: input.code ? 'code' : 'password' }],
        });
      });
    },

    async regenerateRecoveryCodes(user: TUserRow, input: TReauthInput): Promise<string[]> {
      const row = await requireEnabled(user);
      await reauthenticate(row, input);
      return deps.transaction(async (tx) => {
        const codes = await issueRecoveryCodes(tx, row);
        await accountAudit(tx.audit, row, 'account.recovery_codes_new');
        return codes;
      });
    },

    /**
     * `portico user reset-2fa`: for an account whose owner lost the authenticator and codes. Its
     * sessions end with it: whoever is signed in got past the two-factor that is now gone.
     */
    async reset(
      username: string,
    ): Promise<{ user: TUserRow; wasOn: boolean; endedSessions: number }> {
      const row = await deps.users.requireByUsername(username);
      const endedSessions = await deps.transaction(async (tx) => {
        await turnOff(tx, row.id);
        const ended = await tx.sessions.removeForUser(row.id);
        await accountAudit(tx.audit, null, 'account.two_factor_reset', { target: row });
        return ended;
      });
      return { user: row, wasOn: row.totpEnabledAt !== null, endedSessions };
    },
  };
}
