import { describe, expect, it } from 'vitest';
import { useCliStore } from '../support/cli-store';
import { ed25519 } from '../support/ssh-key-fixtures';
import { withAppOnStore } from '../support/test-app';
import { newCredentials, TestClient } from '../support/test-client';
import { testDatabaseKinds } from '../support/test-database';
import { everyRow, expectDataDirFree, findIn, needlesFor, type TNeedle } from './secrets-scan';

/** The base64 body of a private key, line by line: each line is a piece no file may hold. */
function keyLines(privateKey: string): string[] {
  return privateKey.split('\n').filter((l) => l.length >= 40 && !l.startsWith('-----'));
}

describe.each(testDatabaseKinds())(
  'saved SSH server secrets at rest on %s',
  { timeout: 120_000 },
  (kind) => {
    const env = useCliStore(kind, 'server-secrets');
    const dataDir = env.PORTICO_DATA_DIR!;

    it('keeps no password, private key or passphrase in any answer, log line, row or file', async () => {
      const tag = `${Date.now().toString(36)}${process.pid}`;
      const password = `srvPass${tag}Secret`;
      const passphrase = `phrase${tag}Secret`;
      const sudoPassword = `sudo${tag}Secret`;
      const imported = ed25519(passphrase).privateKey;
      const creds = newCredentials('srvscan');
      const lines: string[] = [];
      const answers: string[] = [];
      const found = await withAppOnStore(
        env,
        async ({ app, database }) => {
          const client = new TestClient(app, { headers: { 'accept-language': 'en' } });
          await client.register(creds);
          const base = { host: '203.0.113.40', username: 'deploy' };
          const record = async <R extends { statusCode: number; body: string }>(
            r: R,
            status: number,
          ) => {
            expect(r.statusCode, r.body).toBe(status);
            answers.push(r.body);
            return r;
          };
          const withPassword = await record(
            await client.write('POST', '/api/ssh-servers', { ...base, name: 'pw', password }),
            201,
          );
          await record(
            await client.write('POST', '/api/ssh-servers', {
              ...base,
              name: 'imported',
              authKind: 'key',
              privateKey: imported,
              passphrase,
              sudoPassword,
            }),
            201,
          );
          const generated = await record(
            await client.write('POST', '/api/ssh-servers', {
              ...base,
              name: 'generated',
              authKind: 'key',
              generateKey: true,
            }),
            201,
          );
          // A wrong passphrase is refused without echoing the key or the passphrase tried.
          await record(
            await client.write('POST', '/api/ssh-servers', {
              ...base,
              name: 'refused',
              authKind: 'key',
              privateKey: imported,
              passphrase: `${passphrase}x`,
            }),
            400,
          );
          const id = withPassword.json().id as string;
          await record(await client.write('PATCH', `/api/ssh-servers/${id}`, { password }), 200);
          await record(await client.request({ method: 'GET', url: `/api/ssh-servers/${id}` }), 200);
          await record(await client.request({ method: 'GET', url: '/api/ssh-servers' }), 200);
          // Every route of a server's page: a check (a closed port on this machine: unreachable
          // at once), forget key, and the three actions.
          const local = await record(
            await client.write('POST', '/api/ssh-servers', {
              host: '127.0.0.1',
              port: 1,
              username: 'deploy',
              name: 'local',
              password,
            }),
            201,
          );
          const localId = local.json().id as string;
          for (const path of ['check', 'forget-host-key']) {
            await record(await client.write('POST', `/api/ssh-servers/${localId}/${path}`), 200);
          }
          // The background runs, on a server of their own (no worker here: the run stays
          // queued, so the second start is refused, and so would a delete with the sites be).
          const runsServer = await record(
            await client.write('POST', '/api/ssh-servers', {
              host: '127.0.0.1',
              port: 1,
              username: 'runs',
              name: 'local runs',
              password,
            }),
            201,
          );
          const runsId = runsServer.json().id as string;
          const started = await client.write('POST', `/api/ssh-servers/${runsId}/redeploy-all`);
          const runId = (await record(started, 202)).json().id;
          const runs = `/api/ssh-servers/${runsId}/runs`;
          await record(await client.request({ method: 'GET', url: `${runs}/${runId}` }), 200);
          await record(await client.request({ method: 'GET', url: `${runs}/latest` }), 200);
          await record(
            await client.write('POST', `/api/ssh-servers/${runsId}/check-certificates`),
            409,
          );
          await record(
            await client.write('POST', `/api/ssh-servers/${localId}/delete-with-sites`, {}),
            200,
          );
          expect(generated.json().publicKey).toMatch(/^ssh-ed25519 /);

          const needles: TNeedle[] = [
            ...needlesFor('server password', password),
            ...needlesFor('key passphrase', passphrase),
            ...needlesFor('sudo password', sudoPassword),
            ...keyLines(imported).flatMap((l, i) => needlesFor(`imported key line ${i}`, l)),
          ];
          const dump = await everyRow(database);
          expect(dump, 'the dump sees the servers (positive control)').toContain('private_key_enc');
          expect(dump).toContain(generated.json().id);
          return {
            needles,
            hits: [
              ...findIn('database rows', dump, needles),
              ...answers.flatMap((a, i) => findIn(`answer ${i}`, a, needles)),
              ...findIn('answers', answers.join('\n'), [
                { form: 'a private key', bytes: Buffer.from('PRIVATE KEY') },
              ]),
            ],
          };
        },
        { logger: { level: 'trace', stream: { write: (line: string) => lines.push(line) } } },
      );
      expect(found.hits).toEqual([]);
      expect(lines.join('').includes('/api/ssh-servers'), 'the log saw the requests').toBe(true);
      expect(findIn('log', lines.join(''), found.needles)).toEqual([]);

      if (kind === 'pglite') {
        expectDataDirFree(dataDir, found.needles, creds.username);
      }
    });
  },
);
