// The backup drill: instance A (PostgreSQL when the tier has one, else PGlite) with two accounts
// (one with two-factor sign-in), an API token and two sites deployed on a lab server with
// certificates; `portico backup`; instance B restored from it into an empty PGlite data dir. On
// B the accounts sign in (the authenticator's code works), the token works, a redeploy and a
// removal of A's sites succeed on the server, every stored credential decrypts and A's audit
// trail is there. A truncated archive and one with a flipped byte are refused, nothing written.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../testbed/src/lab';
import { postgresAdminQuery } from '../../../../testbed/src/postgres-admin';
import { loadConfig } from '../../src/config';
import { auditLog } from '../../src/db/schema';
import { readBackupHeader } from '../../src/lib/backup-archive';
import { totpCode } from '../../src/lib/totp';
import { openStore } from '../../src/runtime';
import {
  HttpClient,
  labEnv,
  rootProxy,
  startPortico,
  statusWithin2Minutes,
  stopPortico,
  type TPorticoProcess,
} from '../support/lab-app-helpers';
import { httpsGet } from '../support/lab-helpers';
import { runTs } from '../support/spawn';
import { decryptedSecrets } from '../support/stored-secrets';

const kinds = process.env.TEST_DATABASE_URL
  ? (['postgres', 'pglite'] as const)
  : (['pglite'] as const);
const PASSWORD = 'Drill-pass-123';

describe.each(kinds)(
  'backup drill from %s into an empty PGlite data dir',
  { timeout: 600_000 },
  (kind) => {
    let lab: TLab;
    let server: TLabServer;
    let scratch: string;
    let envA: Record<string, string>;
    let envB: Record<string, string>;
    let dropDatabase = async () => {};
    let portico: TPorticoProcess | undefined;
    const archive = () => join(scratch, 'drill.portico-backup');
    const ids: string[] = [];
    let totpSecret: string;
    let token: string;
    let auditRowsOfA: number;

    beforeAll(async () => {
      lab = await startLab({ servers: 1 });
      server = lab.status.servers[0]!;
      scratch = mkdtempSync(join(tmpdir(), 'portico-drill-'));
      envA = { ...labEnv(lab.status), PORTICO_DATA_DIR: join(scratch, 'a') };
      envB = { ...labEnv(lab.status), PORTICO_DATA_DIR: join(scratch, 'b') };
      if (kind === 'postgres') {
        const name = `portico_drill_${process.pid}`;
        await postgresAdminQuery(`drop database if exists ${name} with (force)`);
        await postgresAdminQuery(`create database ${name}`);
        const url = new URL(process.env.TEST_DATABASE_URL!);
        url.pathname = `/${name}`;
        envA.DATABASE_URL = url.toString();
        dropDatabase = () => postgresAdminQuery(`drop database if exists ${name} with (force)`);
      }
    });
    afterAll(async () => {
      await stopPortico(portico);
      await lab?.stop();
      await dropDatabase();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    });

    const cli = (env: Record<string, string>, args: string[]) =>
      runTs('src/cli.ts', args, { env: { ...env, LANG: 'C' }, timeoutMs: 120_000 });

    it('A: accounts, two-factor, a token and two sites deployed with certificates', async () => {
      portico = await startPortico(envA);
      const owner = new HttpClient(portico.base);
      const registered = await owner.request('POST', '/api/register', {
        username: 'drill',
        email: 'drill@example.com',
        password: PASSWORD,
      });
      expect(registered.status).toBe(201);
      for (const domain of server.domains.slice(0, 2)) {
        const saved = await owner.request(
          'POST',
          '/api/proxy-configurations',
          rootProxy(lab.status, server, domain),
        );
        expect(saved.status, JSON.stringify(saved.json)).toBe(200);
        const since = Date.now();
        expect((await owner.request('POST', `/api/deploy/${saved.json.id}`)).status).toBe(202);
        expect(await statusWithin2Minutes(owner, saved.json.id, since)).toBe('completed');
        expect((await httpsGet(lab.status, server.address, domain, '/')).status).toBe(200);
        ids.push(saved.json.id);
      }
      const minted = await owner.request('POST', '/api/account/tokens', {
        name: 'drill',
        scope: 'manage',
        expiresInDays: null,
        password: PASSWORD,
      });
      expect(minted.status).toBe(201);
      token = minted.json.token;

      const second = new HttpClient(portico.base);
      expect(
        (
          await second.request('POST', '/api/register', {
            username: 'drill2fa',
            email: 'drill2fa@example.com',
            password: PASSWORD,
          })
        ).status,
      ).toBe(201);
      const setup = await second.request('POST', '/api/account/two-factor/setup');
      totpSecret = setup.json.secret;
      const confirmed = await second.request('POST', '/api/account/two-factor/confirm', {
        code: totpCode(totpSecret, Date.now()),
      });
      expect(confirmed.status, JSON.stringify(confirmed.json)).toBe(200);
    });

    it('backs A up (on PostgreSQL while it runs) and stops it', async () => {
      if (kind === 'pglite') await stopPortico(portico);
      const written = await cli(envA, ['backup', '--out', archive()]);
      expect(written.code, written.stderr).toBe(0);
      await stopPortico(portico);
      portico = undefined;
      const { header } = readBackupHeader(archive());
      expect(header.tables).toMatchObject({ users: 2, proxy_configurations: 2, api_tokens: 1 });
      auditRowsOfA = header.tables.audit_log!;
      expect(auditRowsOfA).toBeGreaterThanOrEqual(5);
    });

    it('refuses a truncated archive and one with a flipped byte; the target stays empty', async () => {
      const bytes = readFileSync(archive());
      const truncated = join(scratch, 'truncated');
      writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
      const flipped = join(scratch, 'flipped');
      const copy = Buffer.from(bytes);
      copy[copy.length - 10]! ^= 0x80;
      writeFileSync(flipped, copy);
      for (const [file, message] of [
        [truncated, 'is cut short'],
        [flipped, 'is damaged'],
      ] as const) {
        const target = join(scratch, `empty-${message.length}`);
        mkdirSync(target);
        const refused = await cli({ PORTICO_DATA_DIR: target }, ['restore', file]);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain(message);
        expect(readdirSync(target, { recursive: true })).toEqual([]);
      }
    });

    it('B: restored into an empty PGlite dir; sign-in, two-factor and the token work', async () => {
      const restored = await cli(envB, ['restore', archive()]);
      expect(restored.code, restored.stderr).toBe(0);
      portico = await startPortico(envB);
      const owner = new HttpClient(portico.base);
      expect(
        (await owner.request('POST', '/api/login', { identifier: 'drill', password: PASSWORD }))
          .status,
      ).toBe(200);
      const mine = await owner.request('GET', '/api/user/proxy-configurations');
      expect(mine.json.map((p: { id: string }) => p.id).sort()).toEqual([...ids].sort());

      const second = new HttpClient(portico.base);
      const first = await second.request('POST', '/api/login', {
        identifier: 'drill2fa',
        password: PASSWORD,
      });
      expect(first.json).toMatchObject({ twoFactorRequired: true });
      // The next 30-second step: the code confirmed on A may not be used twice.
      const code = await second.request('POST', '/api/login/two-factor', {
        code: totpCode(totpSecret, Date.now() + 30_000),
      });
      expect(code.status, JSON.stringify(code.json)).toBe(200);
      expect((await second.request('GET', '/api/auth/user')).json).toMatchObject({
        username: 'drill2fa',
      });

      const listed = await fetch(`${portico.base}/api/user/proxy-configurations`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(listed.status).toBe(200);
    });

    it("B: redeploys one of A's sites and removes the other from the server", async () => {
      const owner = new HttpClient(portico!.base);
      await owner.request('POST', '/api/login', { identifier: 'drill', password: PASSWORD });
      const since = Date.now();
      expect(
        (await owner.request('POST', `/api/proxy-configurations/${ids[0]}/redeploy`)).status,
      ).toBe(202);
      expect(await statusWithin2Minutes(owner, ids[0]!, since)).toBe('completed');
      expect((await httpsGet(lab.status, server.address, server.domains[0]!, '/')).status).toBe(
        200,
      );

      const removed = await owner.request(
        'DELETE',
        `/api/proxy-configurations/${ids[1]}?removeFromServer=true`,
      );
      expect(removed.json).toEqual({ success: true, removedFromServer: true });
      const gone = await lab.exec(server.name, [
        'test',
        '-e',
        `/etc/nginx/sites-available/proxy-${server.domains[1]}`,
      ]);
      expect(gone.code).not.toBe(0);
    });

    it("B: every stored credential decrypts and A's audit trail is there", async () => {
      await stopPortico(portico);
      portico = undefined;
      const config = loadConfig(envB);
      const store = await openStore(config);
      try {
        const plain = await decryptedSecrets(store.database, config.secretKeyFile);
        expect(plain).toContain(totpSecret);
        expect(plain).toContain(server.users.find((u) => u.name === 'root')!.password);
        const audit = await store.database.db.select({ action: auditLog.action }).from(auditLog);
        expect(audit.length).toBeGreaterThan(auditRowsOfA);
        expect(audit.filter((a) => a.action === 'proxy.create')).toHaveLength(2);
      } finally {
        await store.close();
      }
    });
  },
);
