// Shared by the two-factor, token and account tests: an app whose clock the test moves, so an
// authenticator code (a real RFC 6238 one, lib/totp.ts) is always fresh and never a replay.
import { totpCode } from '../../src/lib/totp';
import { createTestApp, type TTestApp } from './test-app';
import type { TestClient } from './test-client';
import type { TDatabaseKind } from './test-database';

export interface TClock {
  now: () => number;
  /** One 30-second step later: the next code an app would show. */
  nextStep(): void;
}

export function testClock(start = Date.UTC(2031, 0, 1)): TClock {
  let at = start;
  return {
    now: () => at,
    nextStep: () => {
      at += 30_000;
    },
  };
}

export async function clockedApp(
  kind: TDatabaseKind,
  overrides: Parameters<typeof createTestApp>[1] = {},
): Promise<{ t: TTestApp; clock: TClock }> {
  const clock = testClock();
  const t = await createTestApp(kind, { ...overrides, clock: clock.now });
  return { t, clock };
}

/** The code the authenticator shows now; the clock moves on, so the next call gets a new one. */
export function freshCode(secret: string, clock: TClock): string {
  clock.nextStep();
  return totpCode(secret, clock.now());
}

/** Sets two-factor up as the settings page does: the secret shown, a first code confirms. */
export async function turnOnTwoFactor(client: TestClient, clock: TClock) {
  const setup = await client.write('POST', '/api/account/two-factor/setup');
  if (setup.statusCode !== 200) throw new Error(`setup: ${setup.body}`);
  const secret = setup.json().secret as string;
  const confirm = await client.write('POST', '/api/account/two-factor/confirm', {
    code: freshCode(secret, clock),
  });
  if (confirm.statusCode !== 200) throw new Error(`confirm: ${confirm.body}`);
  return {
    secret,
    qrCode: setup.json().qrCode as string,
    otpauthUrl: setup.json().otpauthUrl as string,
    recoveryCodes: confirm.json().recoveryCodes as string[],
  };
}

/** Both steps of signing in; the second with `code`. */
export async function signInWithCode(
  client: TestClient,
  identifier: string,
  password: string,
  code: string,
) {
  const first = await client.login(identifier, password);
  if (first.statusCode !== 200 || first.json().twoFactorRequired !== true) {
    throw new Error(`first step: ${first.body}`);
  }
  const second = await client.write('POST', '/api/login/two-factor', { code });
  client.csrfToken = undefined;
  return second;
}
