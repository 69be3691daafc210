// Deployments through the API on real lab servers (testbed/): sshd, nginx, certbot, Pebble.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { translate } from '@portico/shared/i18n/translate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdScript } from '../../../../../testbed/src/hold-script';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import {
  deploymentUnderWay,
  HttpClient,
  labEnv,
  rootProxy,
  startPortico,
  statusWithin2Minutes,
  stopPortico,
  type TPorticoProcess,
} from '../../../test/support/lab-app-helpers';
import { httpsGet } from '../../../test/support/lab-helpers';
import { inProcessLabApp } from '../../../test/support/lab-in-process-app';
import { countNginxParses } from '../../../test/support/nginx-parse-count';
import { signedInClient, waitForStatus } from '../../../test/support/proxies-test-helpers';
import type { TTestApp } from '../../../test/support/test-app';
import {
  cookieHeader,
  progressLines,
  statuses,
  watch,
} from '../../../test/support/ws-test-helpers';

let lab: TLab;
let s1: TLabServer;
let s2: TLabServer;
let s3: TLabServer;

beforeAll(async () => {
  lab = await startLab({ servers: 3, variants: { s3: ['no-scheduler'] } });
  [s1, s2, s3] = lab.status.servers as [TLabServer, TLabServer, TLabServer];
});

afterAll(async () => {
  await lab?.stop();
});

function proxyFor(server: TLabServer) {
  return rootProxy(lab.status, server, server.domains[0]!);
}

describe('a deployment through the API (in-process app on PGlite)', () => {
  let t: TTestApp;
  let base: string;
  let parses: Awaited<ReturnType<typeof countNginxParses>>;
  beforeAll(async () => {
    const started = await inProcessLabApp(lab.status);
    t = started;
    base = started.base;
    parses = await countNginxParses(lab, s1.name);
  });
  afterAll(async () => {
    await parses?.stop();
    await t?.close();
  });

  it('ends completed, streams the lines live, replays them after a reconnect, and deletes with removal', async () => {
    const { client } = await signedInClient(t);
    const input = proxyFor(s1);
    const saved = await client.write('POST', '/api/proxy-configurations', input);
    expect(saved.statusCode).toBe(200);
    const id = saved.json().id as string;

    const live = watch(
      base,
      id,
      { cookie: cookieHeader(client.cookies), origin: base },
      '&lang=en',
    );
    await live.waitFor((m) => statuses(m).length > 0);
    const started = await client.write('POST', `/api/deploy/${id}`);
    expect(started.statusCode).toBe(202);
    const { deploymentId } = started.json();
    await live.waitFor(
      (m) => ['completed', 'failed'].includes(statuses(m).at(-1) ?? '') && statuses(m).length > 2,
      120_000,
    );
    const streamed = progressLines(live.messages).filter((l) => l.deploymentId === deploymentId);
    expect(statuses(live.messages).at(-1), JSON.stringify(streamed.map((l) => l.message))).toBe(
      'completed',
    );
    expect(streamed.at(-1)!.message).toMatch(/^Deployment complete/);
    expect(JSON.stringify(live.messages)).not.toContain(input.sshPassword);
    live.close();

    const stored = (
      await client.request({ method: 'GET', url: `/api/deployment-logs/${id}` })
    ).json();
    expect(stored.map((l: { id: number }) => l.id)).toEqual(streamed.map((l) => l.id));

    // A client that reconnects gets the whole run again, then the status.
    const again = watch(base, id, { cookie: cookieHeader(client.cookies) });
    await again.waitFor((m) => statuses(m).length > 0);
    expect(progressLines(again.messages).map((l) => l.id)).toEqual(streamed.map((l) => l.id));
    expect(statuses(again.messages)).toEqual(['completed']);
    again.close();

    const config = (
      await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}` })
    ).json();
    expect(config).toMatchObject({
      status: 'completed',
      sslConfigured: true,
      nginxConfigPath: `/etc/nginx/sites-available/proxy-${input.domain}`,
      hostKeyFingerprint: s1.hostKeyFingerprint,
      changedSinceDeploy: false,
    });
    expect(new Date(config.certificateExpiresAt).getTime()).toBeGreaterThan(Date.now());
    const page = await httpsGet(lab.status, s1.address, input.domain, '/');
    expect(page.status).toBe(200);

    // The lab server has no systemd and cron stopped: the deployment started cron, and the
    // certificate section says so in the reader's language. True on the server: cron runs.
    const certificate = await client.request({
      method: 'GET',
      url: `/api/proxy-configurations/${id}/certificate`,
      headers: { 'accept-language': 'es' },
    });
    expect(certificate.json().renewal).toMatchObject({
      method: 'cron',
      where: '/etc/cron.d/certbot',
      working: true,
      setUpByPortico: true,
    });
    expect(certificate.json().renewal.notes).toContain(
      'cron estaba instalado pero no en marcha: Portico lo inició (service cron start).',
    );
    const comms = await lab.exec(s1.name, ['sh', '-c', 'cat /proc/[0-9]*/comm']);
    expect(comms.stdout.split('\n')).toContain('cron');

    // The app's runs share one kept nginx dump per server (services.ts hands the engine one
    // NginxDumpCache): a plan after the deployment reads no configuration of its own.
    await parses.since();
    const plan = await client.write('POST', `/api/proxy-configurations/${id}/plan`, {});
    expect(plan.statusCode, plan.body).toBe(200);
    expect(await parses.since()).toEqual({ runs: [], reloads: 0 });

    const deleted = await client.write(
      'DELETE',
      `/api/proxy-configurations/${id}?removeFromServer=true`,
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ success: true, removedFromServer: true });
    const gone = await lab.exec(s1.name, ['test', '-e', config.nginxConfigPath]);
    expect(gone.code).not.toBe(0);
    const nginx = await lab.exec(s1.name, ['nginx', '-t']);
    expect(nginx.code).toBe(0);
  });

  it('on a server where nothing can renew the certificate: failed at renewal, saying why, the site served and shown as such', async () => {
    const { client } = await signedInClient(t);
    const saved = await client.write('POST', '/api/proxy-configurations', proxyFor(s3));
    const id = saved.json().id as string;
    expect((await client.write('POST', `/api/deploy/${id}`)).statusCode).toBe(202);
    const done = await waitForStatus(client, id, (s) => s !== 'deploying');
    expect(done.status).toBe('failed');
    for (const lang of ['en', 'es'] as const) {
      const config = (
        await client.request({
          method: 'GET',
          url: `/api/proxy-configurations/${id}`,
          headers: { 'accept-language': lang },
        })
      ).json();
      // Deployed and served over HTTPS (the SSL card says so), and the failure says what is not.
      expect(config).toMatchObject({ status: 'failed', sslConfigured: true });
      expect(config.lastFailure).toMatchObject({ code: 'renewal_unavailable', step: 'renewal' });
      expect(config.lastFailure.message).toContain(translate(lang, 'certificates.renewal.none'));
      expect(config.lastFailure.message).toContain(translate(lang, 'deployLog.renewal.siteServed'));
      const certificate = (
        await client.request({
          method: 'GET',
          url: `/api/proxy-configurations/${id}/certificate`,
          headers: { 'accept-language': lang },
        })
      ).json();
      expect(certificate.renewal).toMatchObject({ method: 'none', working: false });
      expect(certificate.renewal.notes).toEqual([
        translate(lang, 'certificates.renewal.none'),
        translate(lang, 'certificates.renewal.noneWayOut'),
      ]);
    }
    const page = await httpsGet(lab.status, s3.address, s3.domains[0]!, '/');
    expect(page.status).toBe(200);
    const comms = await lab.exec(s3.name, ['sh', '-c', 'cat /proc/[0-9]*/comm']);
    expect(comms.stdout.split('\n')).not.toContain('cron');
  });
});

describe('Portico killed with SIGKILL in the middle of a deployment', () => {
  let dataDir: string;
  let portico: TPorticoProcess | undefined;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'portico-kill-'));
  });
  afterAll(async () => {
    await stopPortico(portico);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('after a restart the run ends completed or failed within 2 minutes, saying it was interrupted', async () => {
    const env = { ...labEnv(lab.status), PORTICO_DATA_DIR: dataDir };
    portico = await startPortico(env);
    const client = new HttpClient(portico.base);
    // Killed once the run is under way on the server: it waits at its script step until the
    // marker exists on s2, which only comes after the kill.
    const marker = '/tmp/portico-killer-release';
    await lab.exec(s2.name, ['rm', '-f', marker]);
    const id = await deploymentUnderWay(client, 'killer', proxyFor(s2), holdScript(marker, 120));
    await stopPortico(portico, 'SIGKILL');
    await lab.exec(s2.name, ['touch', marker]);

    portico = await startPortico(env);
    const restartedAt = Date.now();
    const after = new HttpClient(portico.base);
    after.cookies.clear();
    for (const [k, v] of client.cookies) after.cookies.set(k, v);
    const status = await statusWithin2Minutes(after, id, restartedAt);
    expect(['completed', 'failed']).toContain(status);
    const logs = (await after.request('GET', `/api/deployment-logs/${id}`)).json as {
      message: string;
    }[];
    expect(
      logs.some((l) =>
        l.message.startsWith(
          'The previous attempt was interrupted (the Portico process working it stopped)',
        ),
      ),
    ).toBe(true);
    expect(status, logs.map((l) => l.message).join('\n')).toBe('completed');
  });
});
