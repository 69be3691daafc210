// Two-factor sign-in over the real API on PGlite and PostgreSQL: set up with a first
// code from a real RFC 6238 generator (lib/totp.ts, checked against the RFC's vectors), the QR
// code read back, sign-in in two steps, a used code refused within its window, recovery codes
// used once, codes rate-limited like passwords, turning it off.
import { decodeQR } from 'qr/decode.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TTestApp } from '../../../test/support/test-app';
import { newCredentials, TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import {
  clockedApp,
  freshCode,
  signInWithCode,
  type TClock,
  turnOnTwoFactor,
} from '../../../test/support/two-factor-test-helpers';
import { totpCode } from '../../lib/totp';

const FEW = { max: 3, windowMs: 600_000 };
const LOTS = { max: 10_000, windowMs: 60_000 };

/**
 * The served SVG as an image the decoder reads: each dark module is a unit square whose corner
 * is given by an absolute `M x y` or a move `m dx dy` from the previous square's corner.
 */
function svgToImage(dataUrl: string) {
  const base64 = dataUrl.replace(/^data:image\/svg\+xml;base64,/, '');
  const svg = Buffer.from(base64, 'base64').toString();
  const size = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)![1]);
  const scale = 6;
  const quiet = 4;
  const width = (size + 2 * quiet) * scale;
  const data = new Uint8Array(width * width * 4).fill(255);
  let x = 0;
  let y = 0;
  for (const [, move, dx, dy] of svg.matchAll(/([Mm])(-?\d+) (-?\d+)/g)) {
    x = (move === 'M' ? 0 : x) + Number(dx);
    y = (move === 'M' ? 0 : y) + Number(dy);
    for (let row = 0; row < scale; row += 1) {
      for (let col = 0; col < scale; col += 1) {
        const offset = (((y + quiet) * scale + row) * width + (x + quiet) * scale + col) * 4;
        data.fill(0, offset, offset + 3);
      }
    }
  }
  return { width, height: width, data };
}

describe.each(testDatabaseKinds())('two-factor sign-in on %s', (kind) => {
  let t: TTestApp;
  let clock: TClock;
  beforeAll(async () => {
    ({ t, clock } = await clockedApp(kind, {
      rateLimits: {
        twoFactor: { perIp: LOTS, perIdentifier: FEW },
        reauth: { perIp: LOTS, perIdentifier: LOTS },
      },
    }));
  });
  afterAll(async () => t?.close());

  async function account() {
    const creds = newCredentials('tfa');
    const client = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
    expect((await client.register(creds)).statusCode).toBe(201);
    return { creds, client };
  }

  it('shows the secret and a QR code of it once, and is on only after a first code', async () => {
    const { creds, client } = await account();
    const setup = await client.write('POST', '/api/account/two-factor/setup');
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl, qrCode } = setup.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect(decodeQR(svgToImage(qrCode))).toBe(otpauthUrl);

    // Not on yet: signing in still takes the password alone.
    const status = await client.request({ method: 'GET', url: '/api/account/two-factor' });
    expect(status.json()).toMatchObject({ enabled: false });
    expect(
      (await new TestClient(t.app).login(creds.username, creds.password)).json(),
    ).toHaveProperty('user');

    const wrong = await client.write('POST', '/api/account/two-factor/confirm', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'two_factor_invalid' });
    const right = await client.write('POST', '/api/account/two-factor/confirm', {
      code: freshCode(secret, clock),
    });
    expect(right.statusCode).toBe(200);
    const codes = right.json().recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);

    // Never again: not in the status, the user, nor a second setup (refused while on).
    for (const url of ['/api/account/two-factor', '/api/auth/user']) {
      const body = (await client.request({ method: 'GET', url })).body;
      expect(body).not.toContain(secret);
      for (const code of codes) expect(body).not.toContain(code);
    }
    expect(
      (await client.request({ method: 'GET', url: '/api/account/two-factor' })).json(),
    ).toMatchObject({
      enabled: true,
      recoveryCodesLeft: 10,
    });
    const again = await client.write('POST', '/api/account/two-factor/setup');
    expect(again.statusCode).toBe(409);
    expect(again.body).not.toContain(secret);
  });

  it('signs in in two steps; the first step alone signs nobody in', async () => {
    const { creds, client } = await account();
    const { secret } = await turnOnTwoFactor(client, clock);
    const browser = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
    const first = await browser.login(creds.username, creds.password);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ twoFactorRequired: true });
    expect((await browser.me()).statusCode).toBe(401);
    expect(
      (await browser.request({ method: 'GET', url: '/api/user/proxy-configurations' })).statusCode,
    ).toBe(401);

    const wrong = await browser.write('POST', '/api/login/two-factor', { code: '000000' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(
      'That code is not valid, or was already used. Enter the current code from your app, or an unused recovery code.',
    );
    const ok = await browser.write('POST', '/api/login/two-factor', {
      code: freshCode(secret, clock),
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ username: creds.username, twoFactorEnabled: true });
    expect((await browser.me()).statusCode).toBe(200);
  });

  it('refuses a code used once, even within its window, and the second step without the first', async () => {
    const { creds, client } = await account();
    const { secret } = await turnOnTwoFactor(client, clock);
    const code = freshCode(secret, clock);
    const a = await signInWithCode(new TestClient(t.app), creds.username, creds.password, code);
    expect(a.statusCode).toBe(200);
    // Same step, same code, a second browser: a replay.
    const b = await signInWithCode(new TestClient(t.app), creds.username, creds.password, code);
    expect(b.statusCode).toBe(401);
    expect(b.json().code).toBe('two_factor_invalid');
    // And an older one still in the window.
    const older = totpCode(secret, clock.now() - 30_000);
    const c = await signInWithCode(new TestClient(t.app), creds.username, creds.password, older);
    expect(c.statusCode).toBe(401);

    const stranger = new TestClient(t.app);
    const alone = await stranger.write('POST', '/api/login/two-factor', {
      code: freshCode(secret, clock),
    });
    expect(alone.statusCode).toBe(401);
    expect(alone.json().code).toBe('two_factor_expired');
  });

  it('takes each recovery code once, and says how many are left', async () => {
    const { creds, client } = await account();
    const { recoveryCodes } = await turnOnTwoFactor(client, clock);
    const [first, second] = recoveryCodes;
    // As a person might type it: upper case, no dashes.
    const typed = first!.replaceAll('-', '').toUpperCase();
    expect(
      (await signInWithCode(new TestClient(t.app), creds.username, creds.password, typed))
        .statusCode,
    ).toBe(200);
    const reused = await signInWithCode(
      new TestClient(t.app),
      creds.username,
      creds.password,
      first!,
    );
    expect(reused.statusCode).toBe(401);
    expect(
      (await signInWithCode(new TestClient(t.app), creds.username, creds.password, second!))
        .statusCode,
    ).toBe(200);
    const status = await client.request({ method: 'GET', url: '/api/account/two-factor' });
    expect(status.json().recoveryCodesLeft).toBe(8);
  });

  it('limits codes like passwords: per account, whatever the browser', async () => {
    const { creds, client } = await account();
    const { secret } = await turnOnTwoFactor(client, clock);
    const statuses: number[] = [];
    for (let i = 0; i < FEW.max + 1; i += 1) {
      const browser = new TestClient(t.app);
      const response = await signInWithCode(browser, creds.username, creds.password, '000000');
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Over the limit, even the right code is not looked at.
    const right = await signInWithCode(
      new TestClient(t.app),
      creds.username,
      creds.password,
      freshCode(secret, clock),
    );
    expect(right.statusCode).toBe(429);
    expect(right.headers['retry-after']).toBeDefined();
  });

  it('turns off with a code or the password, never with neither', async () => {
    const { creds, client } = await account();
    const { secret } = await turnOnTwoFactor(client, clock);
    const neither = await client.write('POST', '/api/account/two-factor/disable', {});
    expect(neither.statusCode).toBe(400);
    const wrong = await client.write('POST', '/api/account/two-factor/disable', {
      password: 'Nope12345',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('wrong_password');
    const off = await client.write('POST', '/api/account/two-factor/disable', {
      code: freshCode(secret, clock),
    });
    expect(off.statusCode).toBe(200);
    const plain = await new TestClient(t.app).login(creds.username, creds.password);
    expect(plain.json()).toHaveProperty('user');

    // On again (a new secret), then off with the password.
    await turnOnTwoFactor(client, clock);
    const byPassword = await client.write('POST', '/api/account/two-factor/disable', {
      password: creds.password,
    });
    expect(byPassword.statusCode).toBe(200);
    expect(
      (await client.request({ method: 'GET', url: '/api/account/two-factor' })).json(),
    ).toMatchObject({
      enabled: false,
      recoveryCodesLeft: 0,
    });
  });

  it('issues new recovery codes that replace the old ones', async () => {
    const { creds, client } = await account();
    const { recoveryCodes: old } = await turnOnTwoFactor(client, clock);
    const renewed = await client.write('POST', '/api/account/two-factor/recovery-codes', {
      password: creds.password,
    });
    expect(renewed.statusCode).toBe(200);
    const fresh = renewed.json().recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => old.includes(code))).toEqual([]);
    const stale = await signInWithCode(
      new TestClient(t.app),
      creds.username,
      creds.password,
      old[0]!,
    );
    expect(stale.statusCode).toBe(401);
    const ok = await signInWithCode(
      new TestClient(t.app),
      creds.username,
      creds.password,
      fresh[0]!,
    );
    expect(ok.statusCode).toBe(200);
  });
});
