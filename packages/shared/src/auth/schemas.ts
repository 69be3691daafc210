import { z } from 'zod';
import {
  PASSWORD_MAX,
  PASSWORD_MIN,
  USERNAME_MAX,
  USERNAME_MIN,
  USERNAME_PATTERN,
} from '../validation/rules';
import { ZCleanString } from '../validation/text';

// Messages are translation keys (packages/shared/src/locales); both the forms and the API
// translate them into the user's language.

export const ZUsername = ZCleanString()
  .min(1, 'validation.required')
  .min(USERNAME_MIN, 'validation.username.min')
  .max(USERNAME_MAX, 'validation.username.max')
  .regex(USERNAME_PATTERN, 'validation.username.pattern');

export const ZEmail = ZCleanString()
  .min(1, 'validation.required')
  .max(254, 'validation.email.invalid')
  .pipe(z.email('validation.email.invalid'));

export const ZNewPassword = z
  .string({ error: 'validation.required' })
  .min(1, 'validation.required')
  .min(PASSWORD_MIN, 'validation.password.min')
  .max(PASSWORD_MAX, 'validation.password.max')
  .refine(
    (v) => /[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v),
    'validation.password.complexity',
  );

/** Body of POST /api/register. Any other field (such as `role`) is dropped. */
export const ZRegisterInput = z.object({
  username: ZUsername,
  email: ZEmail,
  password: ZNewPassword,
});
export type TRegisterInput = z.infer<typeof ZRegisterInput>;

/** The register form adds a confirmation that never leaves the browser. */
export const ZRegisterForm = ZRegisterInput.extend({
  confirmPassword: z.string({ error: 'validation.required' }).min(1, 'validation.required'),
}).refine((v) => v.password === v.confirmPassword, {
  message: 'validation.password.mismatch',
  path: ['confirmPassword'],
});
export type TRegisterForm = z.infer<typeof ZRegisterForm>;

/** Body of POST /api/login: identifier is a username or an e-mail address. */
export const ZLoginInput = z.object({
  identifier: ZCleanString('validation.identifier.required')
    .min(1, 'validation.identifier.required')
    .max(254, 'validation.identifier.required'),
  password: z
    .string({ error: 'validation.loginPassword.required' })
    .min(1, 'validation.loginPassword.required')
    .max(PASSWORD_MAX, 'validation.loginPassword.required'),
});
export type TLoginInput = z.infer<typeof ZLoginInput>;

export const ZRole = z.enum(['user', 'admin']);
export type TRole = z.infer<typeof ZRole>;

/** What GET /api/auth/user answers: never a password hash. */
export const ZPublicUser = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  role: ZRole,
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Signing in asks for an authenticator code too. */
  twoFactorEnabled: z.boolean(),
  /**
   * PORTICO_REQUIRE_2FA applies and two-factor is off: until it is set up, the API refuses
   * everything but setting it up (and signing out).
   */
  twoFactorSetupRequired: z.boolean(),
});
export type TPublicUser = z.infer<typeof ZPublicUser>;

export const ZCsrfTokenResponse = z.object({ token: z.string() });
