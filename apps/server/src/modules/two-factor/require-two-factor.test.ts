// PORTICO_REQUIRE_2FA: the accounts it names can do nothing but set two-factor up (and see who
// they are, and sign out) until it is on; everyone else is unaffected. PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient } from '../../../test/support/proxies-test-helpers';
import type { TTestApp } from '../../../test/support/test-app';
import { newCredentials, TEST_PASSWORD, TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import {
  clockedApp,
  type TClock,
  turnOnTwoFactor,
} from '../../../test/support/two-factor-test-helpers';

const PROXIES = '/api/user/proxy-configurations';

describe.each(testDatabaseKinds())('PORTICO_REQUIRE_2FA on %s', (kind) => {
  describe('admins', () => {
    let t: TTestApp;
    let clock: TClock;
    beforeAll(async () => {
      ({ t, clock } = await clockedApp(kind, { config: { require2fa: 'admins' } }));
    });
    afterAll(async () => t?.close());

    it('holds an admin to the setup, then lets everything through', async () => {
      const { client } = await signedInClient(t, 'admin');
      const me = await client.me();
      expect(me.json()).toMatchObject({ role: 'admin', twoFactorSetupRequired: true });
      for (const url of [
        PROXIES,
        '/api/admin/users',
        '/api/account/tokens',
        '/api/account/sessions',
      ]) {
        const response = await client.request({ method: 'GET', url });
        expect(response.statusCode, url).toBe(403);
        expect(response.json(), url).toMatchObject({
          code: 'two_factor_setup_required',
          message:
            'This Portico requires two-factor sign-in for your account: set it up in Settings before doing anything else.',
        });
      }
      const write = await client.write('POST', '/api/account/tokens', {
        name: 'x',
        scope: 'read',
        expiresInDays: null,
      });
      expect(write.statusCode).toBe(403);

      await turnOnTwoFactor(client, clock);
      expect((await client.me()).json().twoFactorSetupRequired).toBe(false);
      expect((await client.request({ method: 'GET', url: PROXIES })).statusCode).toBe(200);
      expect((await client.request({ method: 'GET', url: '/api/admin/users' })).statusCode).toBe(
        200,
      );
    });

    it('holds the account again, tokens included, when two-factor is turned off', async () => {
      const { client } = await signedInClient(t, 'admin');
      const { secret } = await turnOnTwoFactor(client, clock);
      expect(secret).toBeTruthy();
      const created = await client.write('POST', '/api/account/tokens', {
        name: 'ci',
        scope: 'read',
        expiresInDays: null,
        password: TEST_PASSWORD,
      });
      const bearer = { authorization: `Bearer ${created.json().token}` };
      expect(
        (await t.app.inject({ method: 'GET', url: PROXIES, headers: bearer })).statusCode,
      ).toBe(200);
      const off = await client.write('POST', '/api/account/two-factor/disable', {
        password: newCredentials().password,
      });
      expect(off.statusCode).toBe(200);
      expect((await client.request({ method: 'GET', url: PROXIES })).statusCode).toBe(403);
      const viaToken = await t.app.inject({ method: 'GET', url: PROXIES, headers: bearer });
      expect(viaToken.statusCode).toBe(403);
      expect(viaToken.json().code).toBe('two_factor_setup_required');
    });

    it('leaves users alone', async () => {
      const { client } = await signedInClient(t);
      expect((await client.me()).json().twoFactorSetupRequired).toBe(false);
      expect((await client.request({ method: 'GET', url: PROXIES })).statusCode).toBe(200);
    });
  });

  describe('all', () => {
    let t: TTestApp;
    beforeAll(async () => {
      ({ t } = await clockedApp(kind, { config: { require2fa: 'all' } }));
    });
    afterAll(async () => t?.close());

    it('holds a new account from its registration on', async () => {
      const client = new TestClient(t.app, { headers: { 'accept-language': 'es' } });
      const registered = await client.register(newCredentials('all'));
      expect(registered.json().user.twoFactorSetupRequired).toBe(true);
      const refused = await client.request({ method: 'GET', url: PROXIES });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(
        'Este Portico exige verificación en dos pasos para tu cuenta: actívala en Ajustes antes de hacer nada más.',
      );
      expect(
        (await client.request({ method: 'GET', url: '/api/account/two-factor' })).json(),
      ).toMatchObject({
        enabled: false,
        required: true,
      });
    });
  });
});
