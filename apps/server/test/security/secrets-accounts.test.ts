import { describe, expect, it } from 'vitest';
import { base32Decode } from '../../src/lib/totp';
import { useCliStore } from '../support/cli-store';
import { withAppOnStore } from '../support/test-app';
import { newCredentials, TestClient } from '../support/test-client';
import { testDatabaseKinds } from '../support/test-database';
import {
  freshCode,
  signInWithCode,
  testClock,
  turnOnTwoFactor,
} from '../support/two-factor-test-helpers';
import { everyRow, expectDataDirFree, findIn, needlesFor, type TNeedle } from './secrets-scan';

describe.each(testDatabaseKinds())(
  'account secrets at rest on %s',
  { timeout: 120_000 },
  (kind) => {
    const env = useCliStore(kind, 'account-secrets');
    const dataDir = env.PORTICO_DATA_DIR!;

    it('keeps no token, TOTP secret, recovery code or webhook URL in any table or file', async () => {
      const creds = newCredentials('atrest');
      const found = await withAppOnStore(env, async ({ app, database }) => {
        // The app keeps real time: its first code is the current step's, the second the next's.
        const clock = testClock(Date.now() - 30_000);
        const client = new TestClient(app, { headers: { 'accept-language': 'en' } });
        await client.register(creds);
        const { secret, recoveryCodes } = await turnOnTwoFactor(client, clock);
        const code = freshCode(secret, clock);
        expect(
          (await signInWithCode(new TestClient(app), creds.username, creds.password, code))
            .statusCode,
        ).toBe(200);
        expect(
          (
            await signInWithCode(
              new TestClient(app),
              creds.username,
              creds.password,
              recoveryCodes[0]!,
            )
          ).statusCode,
        ).toBe(200);
        const tokens: string[] = [];
        for (const scope of ['read', 'manage']) {
          const created = await client.write('POST', '/api/account/tokens', {
            name: `scan ${scope}`,
            scope,
            expiresInDays: 30,
            password: creds.password,
          });
          tokens.push(created.json().token);
          const used = await app.inject({
            method: 'GET',
            url: '/api/user/proxy-configurations',
            headers: { authorization: `Bearer ${created.json().token}` },
          });
          expect(used.statusCode).toBe(200);
        }

        // The alert webhook URL holds the receiver's secret: stored encrypted too.
        const hookSecret = `hook${Date.now().toString(36)}Secret${process.pid}`;
        const hook = await client.write('PUT', '/api/account/notifications', {
          emailEnabled: true,
          webhookUrl: `https://93.184.215.14/services/${hookSecret}`,
        });
        expect(hook.statusCode).toBe(200);

        const key = base32Decode(secret);
        const needles: TNeedle[] = [
          ...needlesFor('webhook URL secret', hookSecret),
          ...tokens.flatMap((token) => needlesFor('API token', token, token.slice(4, 24))),
          ...needlesFor('TOTP secret', secret),
          ...needlesFor('TOTP key (hex)', key.toString('hex')),
          ...needlesFor('TOTP key (base64)', key.toString('base64')),
          { form: 'TOTP key (raw bytes)', bytes: key },
          ...recoveryCodes.flatMap((c) => [
            ...needlesFor('recovery code', c),
            ...needlesFor('recovery code (no dashes)', c.replaceAll('-', '')),
          ]),
        ];
        // Every row of every table, the session table included, as text.
        const dump = await everyRow(database);
        expect(dump, 'the dump sees the account (positive control)').toContain(creds.username);
        expect(dump).toContain('totp_secret_enc');
        return { needles, hits: findIn('database rows', dump, needles) };
      });
      expect(found.hits).toEqual([]);

      if (kind === 'pglite') {
        // Closed now: every byte PGlite wrote, data files and WAL.
        expectDataDirFree(dataDir, found.needles, creds.username);
      }
    });
  },
);
