import type {
  TProxyOptions,
  TProxyOptionsInput,
  TProxyOptionsView,
} from '@portico/shared/proxy/options';
import { FieldsAppError } from '../../lib/app-error';
import { hashBasicAuthPassword } from '../../lib/sha512-crypt';

/**
 * The options to store from those sent: a user sent with a password gets a new hash, one sent
 * without keeps the hash stored under that name; a new user without a password, or advanced
 * lines on an instance that does not allow them, are refused on the field (nothing is written).
 */
export function optionsToStore(
  input: TProxyOptionsInput,
  stored: TProxyOptions,
  allowAdvanced: boolean,
): TProxyOptions {
  const issues: { path: string; key: string }[] = [];
  if (input.advanced !== undefined && !allowAdvanced) {
    issues.push({ path: 'options.advanced', key: 'proxyOptions.invalid.advancedDisabled' });
  }
  const hashes = new Map((stored.basicAuth ?? []).map((u) => [u.username, u.passwordHash]));
  const basicAuth = input.basicAuth?.map((u, i) => {
    const passwordHash = u.password ? hashBasicAuthPassword(u.password) : hashes.get(u.username);
    if (!passwordHash) {
      issues.push({
        path: `options.basicAuth.${i}.password`,
        key: 'proxyOptions.invalid.passwordRequired',
      });
    }
    return { username: u.username, passwordHash: passwordHash ?? '' };
  });
  if (issues.length > 0) throw new FieldsAppError(issues);
  const { basicAuth: _, ...rest } = input;
  return basicAuth === undefined ? rest : { ...rest, basicAuth };
}

/** The first upstream is the target the proxy names (its screens and calls keep working). */
export function targetOf(options: TProxyOptionsInput | undefined): string | undefined {
  return options?.upstreams?.[0]?.url;
}

/** The options as the API answers them: passwords only as whether one is set. */
export function optionsView(stored: TProxyOptions): TProxyOptionsView {
  const { basicAuth, ...rest } = stored;
  if (!basicAuth) return rest;
  return {
    ...rest,
    basicAuth: basicAuth.map((u) => ({ username: u.username, hasPassword: u.passwordHash !== '' })),
  };
}

/** A row or a change as the audit log keeps it: options without their password hashes. */
export function withoutHashes<T extends { options?: TProxyOptions | null }>(
  value: T,
): Record<string, unknown> {
  return value.options ? { ...value, options: optionsView(value.options) } : { ...value };
}
