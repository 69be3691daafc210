import { z } from 'zod';
import { PASSWORD_MAX } from '../validation/rules';
import { ZCleanString } from '../validation/text';
import { ZEmail, ZNewPassword, ZPublicUser } from './schemas';

// Shapes of the account calls: profile, password, two-factor sign-in, API tokens and
// sessions. Messages are catalog keys (packages/shared/src/locales), as everywhere.

/**
 * A free-text label (a person's name, a token's name): no control or line-break character
 * (refused like in every text field), any whitespace at its ends dropped, at most `max`.
 */
function ZLabel(max: number, requiredKey?: string) {
  const base = ZCleanString()
    .transform((v) => v.trim())
    .pipe(z.string().max(max, 'validation.tooLong'));
  return requiredKey ? base.pipe(z.string().min(1, requiredKey)) : base;
}

/** The current password, asked again before a sensitive change. */
const ZCurrentPassword = z
  .string({ error: 'validation.loginPassword.required' })
  .min(1, 'validation.loginPassword.required')
  .max(PASSWORD_MAX, 'validation.loginPassword.required');

/** PUT /api/account/profile: empty names are stored as "not set". */
export const ZProfileInput = z.object({
  firstName: ZLabel(100),
  lastName: ZLabel(100),
});
export type TProfileInput = z.infer<typeof ZProfileInput>;

/** PUT /api/account/email: a new address, confirmed by the current password. */
export const ZEmailChangeInput = z.object({
  email: ZEmail,
  currentPassword: ZCurrentPassword,
});
export type TEmailChangeInput = z.infer<typeof ZEmailChangeInput>;

/**
 * Whether a new password or a newly enabled second factor also revokes the account's API
 * tokens: whoever took a token while the old proof was enough keeps no way in. Left out: yes.
 */
const ZRevokeTokens = z.boolean({ error: 'validation.invalidRequest' }).default(true);

/** PUT /api/account/password: ends every other session of the account. */
export const ZPasswordChangeInput = z.object({
  currentPassword: ZCurrentPassword,
  newPassword: ZNewPassword,
  revokeTokens: ZRevokeTokens,
});
export type TPasswordChangeInput = z.infer<typeof ZPasswordChangeInput>;

/** The form adds a confirmation that never leaves the browser. */
export const ZPasswordChangeForm = ZPasswordChangeInput.extend({
  revokeTokens: z.boolean(),
  confirmPassword: z.string(),
}).refine((v) => v.newPassword === v.confirmPassword, {
  message: 'validation.password.mismatch',
  path: ['confirmPassword'],
});
export type TPasswordChangeForm = z.infer<typeof ZPasswordChangeForm>;

// --- Two-factor sign-in -------------------------------------------------------------------------

/** A code from the authenticator app: six digits (spaces a user may type are ignored). */
export const ZTotpCode = z
  .string({ error: 'validation.twoFactor.code' })
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'validation.twoFactor.code'));

/** Recovery codes are 16 characters of an unambiguous alphabet, shown in groups of four. */
export const RECOVERY_CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_CODE = /^[abcdefghjkmnpqrstuvwxyz23456789]{16}$/;

/**
 * What the second step and the confirmations take: an authenticator code or a recovery code.
 * Spaces and dashes are ignored and letters compared in lower case, as the codes are shown.
 */
const ZSecondFactorCode = z
  .string({ error: 'validation.twoFactor.code' })
  .max(64, 'validation.twoFactor.code')
  .transform((v) => v.replace(/[\s-]+/g, '').toLowerCase())
  .pipe(
    z
      .string()
      .refine((v) => /^\d{6}$/.test(v) || RECOVERY_CODE.test(v), 'validation.twoFactor.code'),
  );

/** POST /api/login/two-factor: the second step of signing in. */
export const ZLoginTwoFactorInput = z.object({ code: ZSecondFactorCode });
export type TLoginTwoFactorInput = z.infer<typeof ZLoginTwoFactorInput>;

/** What POST /api/login answers: the user, or that a code is needed first. */
export const ZLoginResponse = z.union([
  z.object({ user: ZPublicUser }),
  z.object({ twoFactorRequired: z.literal(true) }),
]);
export type TLoginResponse = z.infer<typeof ZLoginResponse>;

/** POST /api/account/two-factor/setup: the only answer that ever holds the secret. */
export const ZTwoFactorSetup = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  /** The otpauth URL as a QR code, an SVG image in a data: URL. */
  qrCode: z.string(),
});
export type TTwoFactorSetup = z.infer<typeof ZTwoFactorSetup>;

/** Turning two-factor on also ends every other session, and revokes the tokens unless told not to. */
export const ZTwoFactorConfirmInput = z.object({ code: ZTotpCode, revokeTokens: ZRevokeTokens });
export type TTwoFactorConfirmInput = z.input<typeof ZTwoFactorConfirmInput>;

/** What the confirmation answers: the recovery codes (shown once) and what else it ended. */
export const ZTwoFactorConfirmed = z.object({
  recoveryCodes: z.array(z.string()),
  endedSessions: z.number(),
  revokedTokens: z.number(),
});
export type TTwoFactorConfirmed = z.infer<typeof ZTwoFactorConfirmed>;

/** What a password change answers: how many other sessions ended and tokens were revoked. */
export const ZPasswordChanged = z.object({ endedSessions: z.number(), revokedTokens: z.number() });
export type TPasswordChanged = z.infer<typeof ZPasswordChanged>;

/** Shown once: at confirmation and when regenerated. */
export const ZRecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });
export type TRecoveryCodes = z.infer<typeof ZRecoveryCodes>;

/** A code or the password, asked again before a sensitive change: one of them is given. */
const ZReauthFields = z.object({
  password: ZCurrentPassword.optional(),
  code: ZSecondFactorCode.optional(),
});
const reauthGiven: [
  (v: { password?: string; code?: string }) => boolean,
  { message: string; path: string[] },
] = [
  (v) => v.password !== undefined || v.code !== undefined,
  { message: 'validation.twoFactor.codeOrPassword', path: ['code'] },
];

/** Turning two-factor off, or new recovery codes: a code or the password proves it is you. */
export const ZReauthInput = ZReauthFields.refine(...reauthGiven);
export type TReauthInput = z.infer<typeof ZReauthInput>;

export const ZTwoFactorStatus = z.object({
  enabled: z.boolean(),
  enabledAt: z.string().nullable(),
  recoveryCodesLeft: z.number(),
  /** PORTICO_REQUIRE_2FA applies to this account. */
  required: z.boolean(),
});
export type TTwoFactorStatus = z.infer<typeof ZTwoFactorStatus>;

// --- API tokens ---------------------------------------------------------------------------------

/** read: GET only. manage: read, write and deploy. No scope reaches admin routes. */
export const TOKEN_SCOPES = ['read', 'manage'] as const;
const ZTokenScope = z.enum(TOKEN_SCOPES, { error: 'validation.token.scope' });
export type TTokenScope = z.infer<typeof ZTokenScope>;

/** Every token starts with this, so a leaked one is easy to find (and to scan for). */
export const API_TOKEN_PREFIX = 'ptk_';
const TOKEN_EXPIRY_DAYS_MAX = 366;

/** A token's settings, as the form takes them. */
export const ZTokenSettings = z.object({
  name: ZLabel(60, 'validation.required'),
  scope: ZTokenScope,
  /** null: never expires. */
  expiresInDays: z
    .number({ error: 'validation.token.expiry' })
    .int('validation.token.expiry')
    .min(1, 'validation.token.expiry')
    .max(TOKEN_EXPIRY_DAYS_MAX, 'validation.token.expiry')
    .nullable(),
});
export type TTokenSettings = z.infer<typeof ZTokenSettings>;

/**
 * POST /api/account/tokens: the settings, and a code or the password. A session alone does not
 * mint a token: one that never expires would outlive the session that was stolen.
 */
export const ZCreateTokenInput = ZTokenSettings.extend(ZReauthFields.shape).refine(...reauthGiven);
export type TCreateTokenInput = z.infer<typeof ZCreateTokenInput>;

export const ZApiToken = z.object({
  id: z.string(),
  name: z.string(),
  scope: ZTokenScope,
  /** The first characters, e.g. `ptk_Ab3x`, to tell tokens apart: never the whole token. */
  hint: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export type TApiToken = z.infer<typeof ZApiToken>;

/** The creation answer: the only one that ever holds the token itself. */
export const ZCreatedToken = ZApiToken.extend({ token: z.string() });
export type TCreatedToken = z.infer<typeof ZCreatedToken>;

// --- Sessions -----------------------------------------------------------------------------------

export const ZSessionInfo = z.object({
  /** Names the session without being it: a digest of its id. */
  id: z.string(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  ip: z.string().nullable(),
  signedInAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  current: z.boolean(),
});
export type TSessionInfo = z.infer<typeof ZSessionInfo>;

export const ZSessionIdParams = z.object({
  id: z.string().regex(/^[0-9a-f]{32}$/, 'validation.invalidId'),
});

export const ZEndedSessions = z.object({ ended: z.number() });
