// `portico user reset-2fa NAME`, the way back for an owner who lost both the authenticator and
// the recovery codes: the real CLI on the real store (PGlite data dir, or PostgreSQL), between
// two runs of the app. Two-factor is off afterwards, the account's sessions are signed out and
// the audit trail names the command line.
import { describe, expect, it } from 'vitest';
import { useCliStore } from '../../../test/support/cli-store';
import { signedInClient } from '../../../test/support/proxies-test-helpers';
import { runTs } from '../../../test/support/spawn';
import { withAppOnStore } from '../../../test/support/test-app';
import { newCredentials, TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { testClock, turnOnTwoFactor } from '../../../test/support/two-factor-test-helpers';

describe.each(testDatabaseKinds())('portico user reset-2fa on %s', { timeout: 120_000 }, (kind) => {
  const env = useCliStore(kind, 'reset-2fa');

  it('turns two-factor off, signs the account out, and is in the audit trail', async () => {
    const creds = newCredentials('lost');
    const cookies = await withAppOnStore(env, async ({ app }) => {
      const client = new TestClient(app);
      await client.register(creds);
      await turnOnTwoFactor(client, testClock(Date.now() - 30_000));
      expect((await new TestClient(app).login(creds.username, creds.password)).json()).toEqual({
        twoFactorRequired: true,
      });
      return client.cookies;
    });

    const reset = await runTs('src/cli.ts', ['user', 'reset-2fa', creds.username], { env });
    expect(reset.stderr).toBe('');
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain(
      `two-factor sign-in of ${creds.username} turned off; 1 session(s) signed out.`,
    );
    const unknown = await runTs('src/cli.ts', ['user', 'reset-2fa', 'nobody_here'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('not found');

    await withAppOnStore(env, async ({ app, database }) => {
      const old = new TestClient(app);
      for (const [k, v] of cookies) old.cookies.set(k, v);
      expect((await old.me()).statusCode).toBe(401);
      const fresh = await new TestClient(app).login(creds.username, creds.password);
      expect(fresh.json().user).toMatchObject({ twoFactorEnabled: false });
      // The admin's trail: the command line ("System") turned it off for this account.
      const { client: admin } = await signedInClient(
        { app, database, close: async () => {} },
        'admin',
      );
      const trail = await admin.request({
        method: 'GET',
        url: `/api/admin/audit-log?userId=${fresh.json().user.id}`,
      });
      expect(trail.json().entries[0]).toMatchObject({
        action: 'account.two_factor_reset',
        actorId: null,
        actorUsername: '',
        targetType: 'user',
      });
    });
  });
});
