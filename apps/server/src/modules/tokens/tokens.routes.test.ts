// What stands between a session and a token, over the real API on PGlite and PostgreSQL:
// creating one asks for the password or a code (a stolen session alone mints nothing), counted
// with the other re-authentications; a new password and turning two-factor on end every other
// session and revoke the tokens unless asked to keep them; "last used" is kept, written at most
// once a minute per token.
import { translate } from '@portico/shared/i18n/translate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { newCredentials, TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { freshCode, testClock } from '../../../test/support/two-factor-test-helpers';

const PROXIES = '/api/user/proxy-configurations';
// Wrong proofs per account before 429: low, so the limit is reached within a test.
const REAUTH_TRIES = 6;

describe.each(testDatabaseKinds())('API tokens and re-authentication on %s', (kind) => {
  const clock = testClock();
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {
      clock: clock.now,
      deploy: { workers: 0 },
      rateLimits: {
        reauth: {
          perIp: { max: 1000, windowMs: 60_000 },
          perIdentifier: { max: REAUTH_TRIES, windowMs: 600_000 },
        },
      },
    });
  });
  afterAll(async () => t?.close());

  /** An account signed in from two browsers: `laptop` acts, `phone` is the other session. */
  async function twoBrowsers(lang = 'en') {
    const creds = newCredentials('reauth');
    const laptop = new TestClient(t.app, { headers: { 'accept-language': lang } });
    expect((await laptop.register(creds)).statusCode).toBe(201);
    const phone = new TestClient(t.app);
    expect((await phone.login(creds.username, creds.password)).statusCode).toBe(200);
    return { creds, laptop, phone };
  }

  const create = (client: TestClient, proof: { password?: string; code?: string }) =>
    client.write('POST', '/api/account/tokens', {
      name: 'ci',
      scope: 'manage',
      expiresInDays: null,
      ...proof,
    });
  async function tokenOf(client: TestClient, password: string): Promise<string> {
    const created = await create(client, { password });
    expect(created.statusCode, created.body).toBe(201);
    return created.json().token;
  }
  const use = (token: string) =>
    t.app.inject({ method: 'GET', url: PROXIES, headers: { authorization: `Bearer ${token}` } });
  const listed = async (client: TestClient) =>
    (await client.request({ method: 'GET', url: '/api/account/tokens' })).json() as {
      lastUsedAt: string | null;
    }[];

  /** Two-factor set up and confirmed by `client`; the confirmation's answer and the secret. */
  async function turnOn(client: TestClient, extra: Record<string, unknown> = {}) {
    const setup = await client.write('POST', '/api/account/two-factor/setup');
    const secret = setup.json().secret as string;
    const confirmed = await client.write('POST', '/api/account/two-factor/confirm', {
      code: freshCode(secret, clock),
      ...extra,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return { secret, confirmed: confirmed.json() };
  }

  it('refuses to create a token without the password or a code, in the caller language', async () => {
    const { creds, laptop } = await twoBrowsers('es');
    const bare = await create(laptop, {});
    expect(bare.statusCode).toBe(400);
    expect(bare.json()).toMatchObject({
      code: 'validation_failed',
      issues: [{ path: 'code', message: translate('es', 'validation.twoFactor.codeOrPassword') }],
    });
    const wrong = await create(laptop, { password: 'Wrong1234' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: 'wrong_password',
      message: 'La contraseña actual no es correcta.',
    });
    expect(await listed(laptop)).toEqual([]);
    expect((await create(laptop, { password: creds.password })).statusCode).toBe(201);
    expect(await listed(laptop)).toHaveLength(1);
  });

  it('takes a code from the authenticator instead, once two-factor is on', async () => {
    const { laptop } = await twoBrowsers();
    const { secret } = await turnOn(laptop);
    const wrong = await create(laptop, { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: 'two_factor_invalid',
      message: translate('en', 'errors.twoFactorInvalid'),
    });
    const right = await create(laptop, { code: freshCode(secret, clock) });
    expect(right.statusCode).toBe(201);
    expect((await use(right.json().token)).statusCode).toBe(200);
  });

  it('counts wrong proofs with the other re-authentications of the account: then 429', async () => {
    const { creds, laptop } = await twoBrowsers();
    // One wrong password where it is asked elsewhere, the rest here.
    const email = await laptop.write('PUT', '/api/account/email', {
      email: `x-${creds.email}`,
      currentPassword: 'Wrong1234',
    });
    expect(email.statusCode).toBe(400);
    for (let i = 1; i < REAUTH_TRIES; i++) {
      expect((await create(laptop, { password: 'Wrong1234' })).statusCode).toBe(400);
    }
    const limited = await create(laptop, { password: creds.password });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await listed(laptop)).toEqual([]);
  });

  it('a new password ends the other sessions and revokes the tokens by default', async () => {
    const { creds, laptop, phone } = await twoBrowsers();
    const token = await tokenOf(laptop, creds.password);
    const changed = await laptop.write('PUT', '/api/account/password', {
      currentPassword: creds.password,
      newPassword: 'Changed123',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ endedSessions: 1, revokedTokens: 1 });
    expect((await phone.me()).statusCode).toBe(401);
    expect((await laptop.me()).statusCode).toBe(200);
    expect((await use(token)).statusCode).toBe(401);
    expect(await listed(laptop)).toEqual([]);
  });

  it('a new password keeps the tokens when asked, and still ends the other sessions', async () => {
    const { creds, laptop, phone } = await twoBrowsers();
    const token = await tokenOf(laptop, creds.password);
    const changed = await laptop.write('PUT', '/api/account/password', {
      currentPassword: creds.password,
      newPassword: 'Changed123',
      revokeTokens: false,
    });
    expect(changed.json()).toEqual({ endedSessions: 1, revokedTokens: 0 });
    expect((await phone.me()).statusCode).toBe(401);
    expect((await laptop.me()).statusCode).toBe(200);
    expect((await use(token)).statusCode).toBe(200);
  });

  it('turning two-factor on ends the other sessions and revokes the tokens by default', async () => {
    const { creds, laptop, phone } = await twoBrowsers();
    const token = await tokenOf(laptop, creds.password);
    const { confirmed } = await turnOn(laptop);
    expect(confirmed).toMatchObject({ endedSessions: 1, revokedTokens: 1 });
    expect(confirmed.recoveryCodes).toHaveLength(10);
    expect((await phone.me()).statusCode).toBe(401);
    expect((await laptop.me()).statusCode).toBe(200);
    expect((await use(token)).statusCode).toBe(401);
  });

  it('turning two-factor on keeps the tokens when asked, and still ends the other sessions', async () => {
    const { creds, laptop, phone } = await twoBrowsers();
    const token = await tokenOf(laptop, creds.password);
    const { confirmed } = await turnOn(laptop, { revokeTokens: false });
    expect(confirmed).toMatchObject({ endedSessions: 1, revokedTokens: 0 });
    expect((await phone.me()).statusCode).toBe(401);
    expect((await use(token)).statusCode).toBe(200);
  });

  it('lists when each token was last used, written at most once a minute', async () => {
    const { creds, laptop } = await twoBrowsers();
    const token = await tokenOf(laptop, creds.password);
    expect((await listed(laptop))[0]!.lastUsedAt).toBeNull();
    expect((await use(token)).statusCode).toBe(200);
    const first = clock.now();
    expect(Date.parse((await listed(laptop))[0]!.lastUsedAt!)).toBe(first);
    // Half a minute later: not written again.
    clock.nextStep();
    expect((await use(token)).statusCode).toBe(200);
    expect(Date.parse((await listed(laptop))[0]!.lastUsedAt!)).toBe(first);
    // A minute after the last write: written.
    clock.nextStep();
    expect((await use(token)).statusCode).toBe(200);
    expect(Date.parse((await listed(laptop))[0]!.lastUsedAt!)).toBe(first + 60_000);
  });
});
