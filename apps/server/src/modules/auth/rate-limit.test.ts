import { translate } from '@portico/shared/i18n/translate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { newCredentials, TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { DEFAULT_AUTH_RATE_LIMITS, type TAuthRateLimits } from '../../lib/rate-limits';

const limits: Partial<TAuthRateLimits> = {
  login: { perIp: { max: 4, windowMs: 60_000 }, perIdentifier: { max: 2, windowMs: 60_000 } },
  register: { perIp: { max: 3, windowMs: 60_000 }, perIdentifier: { max: 2, windowMs: 60_000 } },
};

let address = 0;
/** A client from its own address, so tests do not share the per-IP budget. */
function clientFrom(app: TTestApp['app'], headers: Record<string, string> = {}) {
  address += 1;
  return new TestClient(app, { remoteAddress: `10.0.${address >> 8}.${address & 255}`, headers });
}

describe.each(testDatabaseKinds())('rate limits on %s', (kind) => {
  let t: TTestApp;
  let proxied: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { rateLimits: limits });
    proxied = await createTestApp(kind, { rateLimits: limits, config: { trustProxy: true } });
  });
  afterAll(async () => {
    await t?.close();
    await proxied?.close();
  });

  it('limits login per identifier across addresses, saying how long to wait', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<TestClient['login']>> | undefined;
    for (let i = 0; i < 3; i++) {
      last = await clientFrom(t.app, { 'accept-language': 'en' }).login('Target_User', 'Wrong1234');
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([401, 401, 429]);
    const seconds = Number(last!.headers['retry-after']);
    expect(seconds).toBeGreaterThan(0);
    expect(last!.json()).toEqual({
      statusCode: 429,
      code: 'rate_limited',
      message: translate('en', 'errors.rateLimited', { seconds }),
      // The same as a text, so a screen that keeps the error can say it in another language.
      text: { key: 'errors.rateLimited', params: { seconds, minutes: Math.ceil(seconds / 60) } },
    });
    expect(last!.json().message).toContain(String(seconds));
  });

  it('counts the identifier case-insensitively', async () => {
    const a = await clientFrom(t.app).login('case_user', 'Wrong1234');
    const b = await clientFrom(t.app).login('CASE_USER', 'Wrong1234');
    const c = await clientFrom(t.app).login('Case_User', 'Wrong1234');
    expect([a.statusCode, b.statusCode, c.statusCode]).toEqual([401, 401, 429]);
  });

  it('limits login per address across identifiers, in Spanish by default', async () => {
    const client = clientFrom(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await client.login(`ip_user_${i}`, 'Wrong1')).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const blocked = await client.login('ip_user_x', 'Wrong1234');
    expect(blocked.json().message).toMatch(/^Demasiados intentos/);
  });

  it('limits register per address and per username', async () => {
    const client = clientFrom(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await client.register(newCredentials('rl'))).statusCode);
    expect(statuses).toEqual([201, 201, 201, 429]);

    const name = newCredentials('same');
    const tries: number[] = [];
    for (let i = 0; i < 3; i++) {
      tries.push(
        (await clientFrom(t.app).register({ ...newCredentials('x'), username: name.username }))
          .statusCode,
      );
    }
    expect(tries).toEqual([201, 409, 429]);
  });

  it('ignores X-Forwarded-For unless PORTICO_TRUST_PROXY is set', async () => {
    const client = clientFrom(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await client.write(
        'POST',
        '/api/login',
        { identifier: `xff_user_${i}`, password: 'Wrong1234' },
        { 'x-forwarded-for': `192.0.2.${i}` },
      );
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
  });

  it('believes X-Forwarded-For behind a trusted proxy', async () => {
    const client = clientFrom(proxied.app);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await client.write(
        'POST',
        '/api/login',
        { identifier: `proxied_user_${i}`, password: 'Wrong1234' },
        { 'x-forwarded-for': `192.0.2.${i}` },
      );
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
  });
});

describe.each(testDatabaseKinds())('the sign-in limit as shipped on %s', (kind) => {
  let accounts: TTestApp;
  beforeAll(async () => {
    accounts = await createTestApp(kind);
  });
  afterAll(async () => accounts?.close());

  it('counts one account once, whichever spelling names it: 11 tries between username and e-mail hit the 10', async () => {
    const creds = newCredentials('spelled');
    expect((await clientFrom(accounts.app).register(creds)).statusCode).toBe(201);
    const spellings = [
      creds.username,
      creds.email,
      creds.username.toUpperCase(),
      creds.email.toUpperCase(),
    ];
    const statuses: number[] = [];
    for (let i = 0; i <= DEFAULT_AUTH_RATE_LIMITS.login.perIdentifier.max; i++) {
      const spelling = spellings[i % spellings.length]!;
      statuses.push((await clientFrom(accounts.app).login(spelling, 'Wrong1234')).statusCode);
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    // Over the limit even with the right password, by either spelling.
    expect((await clientFrom(accounts.app).login(creds.email, creds.password)).statusCode).toBe(
      429,
    );
  });
});
