// A deployment ends within its deadline on every way the server can end or stall it, says why
// in the run's language, and holds neither the server's lock nor the worker afterwards: with one
// worker, a second run to the same server starts at once and never waits for the lock. The peers
// are a real OpenSSH whose session dies on the first command (the connection closes mid-command),
// peers that close or go silent after the banner, a real OpenSSH cut in the middle of its key
// exchange, a stored password holding a NUL, and engines that do not stop when told: one that
// never answers at all and the real engine stuck inside the server's lock; and removals from a
// silent server and through an engine that never answers. On PGlite, and on
// PostgreSQL when TEST_DATABASE_URL is set. Needs root (see apps/server/test/peers/test-sshd.ts).
import type { TLanguage } from '@portico/shared/api-error';
import { translate } from '@portico/shared/i18n/translate';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cutRelay, misbehavingPeer, type TPeer } from '../../../test/peers/test-peers';
import { startLocalSshd, type TLocalSshd } from '../../../test/peers/test-sshd';
import {
  createProxy,
  markDeployed,
  seedServerSite,
  signedInClient,
  uniqueDomain,
  waitForStatus,
} from '../../../test/support/proxies-test-helpers';
import { testSecretKeyFile } from '../../../test/support/ssh-test-fixtures';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { deployments, proxyConfigurations } from '../../db/schema';
import { removeSite, runCertificateAction, runDeployment } from '../../deploy/engine';
import { say } from '../../deploy/engine/messages';
import { openSecretBox, secretAad } from '../../lib/secrets';
import type { TEngine } from './deploy-job-deps';

const PASSWORD = 'Right-pw-1';

let sshd: TLocalSshd;
let peers: Record<'bannerClose' | 'bannerSilence' | 'cutClose' | 'never', TPeer>;

beforeAll(async () => {
  // This sshd runs on the test machine itself: every command kills its session process, so
  // nothing a deployment sends ever runs here.
  sshd = await startLocalSshd({ rootPassword: PASSWORD, forceScript: 'kill -9 $PPID\n' });
  peers = {
    bannerClose: await misbehavingPeer('banner-then-close'),
    bannerSilence: await misbehavingPeer('banner-then-silence'),
    cutClose: await cutRelay(sshd, 'close'),
    // Only its port matters: the engine given for it never answers (see below).
    never: await misbehavingPeer('banner-then-close'),
  };
});
afterAll(async () => {
  for (const peer of Object.values(peers ?? {})) await peer.close();
  await sshd?.stop();
});

/**
 * The real engine, except: for the `never` port it never answers, whatever it is told; for a
 * domain starting with `stuck-` it stops inside the server's lock for good (its host-key
 * callback, called once logged in, never returns).
 */
const engine: TEngine = {
  runDeployment: (input, ctx) => {
    if (input.sshPort === peers.never.port) return new Promise(() => {});
    if (!input.domain.startsWith('stuck-')) return runDeployment(input, ctx);
    return runDeployment(input, { ...ctx, onHostKey: () => new Promise(() => {}) });
  },
  removeSite: (input, ctx) =>
    input.sshPort === peers.never.port ? new Promise(() => {}) : removeSite(input, ctx),
  runCertificateAction: (input, ctx) =>
    input.sshPort === peers.never.port ? new Promise(() => {}) : runCertificateAction(input, ctx),
};

interface TRun {
  status: string;
  errorCode: string | null;
  errorMessage: string | null;
  /** The run's lines, and the configuration's last failure, as a reader in `readerLang` gets them. */
  lines: string[];
  lastFailure: string | undefined;
}

const other = (lang: TLanguage): TLanguage => (lang === 'en' ? 'es' : 'en');

async function deployOnce(
  t: TTestApp,
  client: TestClient,
  id: string,
  lang: TLanguage,
  readerLang: TLanguage = lang,
) {
  const response = await client.write(
    'POST',
    `/api/proxy-configurations/${id}/redeploy`,
    undefined,
    { 'accept-language': lang },
  );
  expect(response.statusCode, response.body).toBe(202);
  const deploymentId = response.json().deploymentId as string;
  await waitForStatus(client, id, (s) => s !== 'deploying');
  const [row] = await t.database.db
    .select()
    .from(deployments)
    .where(eq(deployments.id, deploymentId));
  const readAs = { 'accept-language': readerLang };
  const config = (
    await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}`, headers: readAs })
  ).json();
  const logs = (
    await client.request({
      method: 'GET',
      url: `/api/deployment-logs/${id}`,
      headers: readAs,
    })
  ).json() as { deploymentId: string; message: string }[];
  return {
    status: row!.status,
    errorCode: row!.errorCode,
    errorMessage: row!.errorMessage,
    lines: logs.filter((l) => l.deploymentId === deploymentId).map((l) => l.message),
    lastFailure: config.lastFailure?.message,
  } satisfies TRun;
}

/**
 * A run in English then one in Spanish to the same server: each fails naming `cause` in its own
 * language, and its last line, read in the other language, is `cause` in that one; the second
 * never waited for the lock (the first let it go) and found the one worker free.
 */
async function expectBothFail(
  t: TTestApp,
  client: TestClient,
  id: string,
  code: string,
  cause: (lang: TLanguage) => string,
) {
  for (const lang of ['en', 'es'] as const) {
    const run = await deployOnce(t, client, id, lang, other(lang));
    expect(run).toMatchObject({ status: 'failed', errorCode: code, errorMessage: cause(lang) });
    expect(run.lines.at(-1)).toBe(cause(other(lang)));
    expect(run.lastFailure).toBe(cause(other(lang)));
    expect(run.lines.join('\n')).not.toMatch(/Another deployment to|Otro despliegue a/);
  }
}

describe.each(testDatabaseKinds())('a deployment ends, naming why, on %s', (kind) => {
  let t: TTestApp;
  let client: TestClient;
  // The engines that never answer are given up on after their grace, so they get an app of their
  // own with a short one; the real engine's app leaves it long, so a slow but honest stop under
  // load is never mistaken for an engine that ignored the deadline.
  let tNever: TTestApp;
  let clientNever: TestClient;
  const keyFile = testSecretKeyFile();
  const appWith = (abandonGraceMs: number) =>
    createTestApp(kind, {
      config: { secretKeyFile: keyFile },
      deploy: {
        workers: 1,
        engine,
        timing: { runDeadlineMs: 2000, abandonGraceMs, removeDeadlineMs: 2000 },
      },
    });
  beforeAll(async () => {
    [t, tNever] = await Promise.all([appWith(8000), appWith(500)]);
    [{ client }, { client: clientNever }] = await Promise.all([
      signedInClient(t),
      signedInClient(tNever),
    ]);
  });
  afterAll(async () => Promise.all([t?.close(), tNever?.close()]));

  const proxyOn = async (port: number, domain = uniqueDomain(), on = client) => {
    const overrides = { serverIp: '127.0.0.1', sshPort: port, sshPassword: PASSWORD, domain };
    return (await createProxy(on, overrides)).id;
  };
  const closedEarly = (port: number) => (lang: TLanguage) =>
    [
      say(lang, 'ssh.closedBeforeLogin', { address: `127.0.0.1:${port}` }),
      say(lang, 'failure.hintClosedByServer'),
    ].join(' ');

  it('a server that closes after its banner', async () => {
    const port = peers.bannerClose.port;
    await expectBothFail(t, client, await proxyOn(port), 'connection_lost', closedEarly(port));
  });

  it('the real sshd cut in the middle of its key exchange', async () => {
    const port = peers.cutClose.port;
    await expectBothFail(t, client, await proxyOn(port), 'connection_lost', closedEarly(port));
  });

  it('a server that goes silent after its banner', { timeout: 120_000 }, async () => {
    const port = peers.bannerSilence.port;
    // The run's own 2 s deadline comes first: the connection attempt is given up then.
    await expectBothFail(t, client, await proxyOn(port), 'timeout', (lang) =>
      say(lang, 'failure.deadline', { step: 'connect', limit: '2 s' }),
    );
  });

  it('a server whose session dies in the middle of the first command', async () => {
    await expectBothFail(t, client, await proxyOn(sshd.port), 'connection_lost', (lang) =>
      [say(lang, 'ssh.closedMidCommand'), say(lang, 'failure.hintConnectionLost')].join(' '),
    );
  });

  it('the engine stuck inside the server lock: the lock is let go', async () => {
    const id = await proxyOn(sshd.port, uniqueDomain('stuck'));
    await expectBothFail(t, client, id, 'timeout', (lang) =>
      say(lang, 'failure.deadline', { step: 'connect', limit: '2 s' }),
    );
    // The same server, through the real engine: it gets the lock and logs in.
    const next = await deployOnce(t, client, await proxyOn(sshd.port), 'en');
    expect(next.lines).toContain(
      say('en', 'connect.connected', { fingerprint: sshd.hostKeyFingerprint }),
    );
  });

  it('an engine that never answers: the job gives up on it', { timeout: 120_000 }, async () => {
    const id = await proxyOn(peers.never.port, undefined, clientNever);
    await expectBothFail(tNever, clientNever, id, 'timeout', (lang) =>
      say(lang, 'job.deadline', { limit: '2 s' }),
    );
  });

  it('a certificate action whose engine never answers ends at the run limit too', {
    timeout: 120_000,
  }, async () => {
    const id = await proxyOn(peers.never.port, undefined, clientNever);
    await markDeployed(tNever, id);
    for (const lang of ['en', 'es'] as const) {
      const response = await clientNever.write(
        'POST',
        `/api/proxy-configurations/${id}/certificate/renew`,
        undefined,
        { 'accept-language': lang },
      );
      expect(response.statusCode, response.body).toBe(202);
      const deploymentId = response.json().deploymentId as string;
      let run = (
        await tNever.database.db.select().from(deployments).where(eq(deployments.id, deploymentId))
      )[0]!;
      for (let i = 0; i < 300 && (run.status === 'queued' || run.status === 'running'); i++) {
        await new Promise((r) => setTimeout(r, 200));
        run = (
          await tNever.database.db
            .select()
            .from(deployments)
            .where(eq(deployments.id, deploymentId))
        )[0]!;
      }
      const limit = say(lang, 'job.deadline', { limit: '2 s' });
      expect(run).toMatchObject({ status: 'failed', errorCode: 'timeout', errorMessage: limit });
      const logs = (
        await clientNever.request({
          method: 'GET',
          url: `/api/deployment-logs/${id}`,
          headers: { 'accept-language': lang },
        })
      ).json() as { deploymentId: string; message: string }[];
      expect(logs.filter((l) => l.deploymentId === deploymentId).at(-1)?.message).toBe(limit);
    }
    // The proxy's own status is an action's to leave alone: the site kept working.
    const [after] = await tNever.database.db
      .select()
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.id, id));
    expect(after!.status).toBe('completed');
  });

  it('a stored password holding a NUL is not sent; the run says to enter it again', async () => {
    const id = await proxyOn(peers.bannerClose.port);
    const stored = openSecretBox(keyFile).encrypt(
      `${PASSWORD}\0`,
      secretAad('proxy', id, 'sshPassword'),
    );
    await t.database.db
      .update(proxyConfigurations)
      .set({ sshPasswordEnc: stored })
      .where(eq(proxyConfigurations.id, id));
    const before = peers.bannerClose.connections();
    await expectBothFail(t, client, id, 'invalid_input', (lang) =>
      say(lang, 'job.storedPasswordUnusable'),
    );
    expect(peers.bannerClose.connections()).toBe(before);
  });
  /** A delete with removal of the site the record places on `port`: refused, naming why. */
  async function expectRemovalEnds(t: TTestApp, client: TestClient, port: number, step: string) {
    const id = await proxyOn(port, undefined, client);
    await seedServerSite(t, id);
    for (const lang of ['es', 'en'] as const) {
      const removal = await client.write(
        'DELETE',
        `/api/proxy-configurations/${id}?removeFromServer=true`,
        undefined,
        { 'accept-language': lang },
      );
      expect(removal.statusCode, removal.body).toBe(502);
      const reason = say(lang, 'failure.deadline', { step, limit: '2 s' });
      expect(removal.json()).toMatchObject({
        code: 'server_unreachable',
        message: translate(lang, 'errors.serverUnreachable', { reason }),
      });
    }
    // Nothing was deleted: the configuration and its record are still there.
    const [row] = await t.database.db
      .select()
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.id, id));
    expect(row!.serverSites).toHaveLength(1);
  }

  it('a removal from a server that goes silent ends at its limit, naming it', async () => {
    await expectRemovalEnds(t, client, peers.bannerSilence.port, 'connect');
  });

  it('a removal whose engine never answers is given up on', { timeout: 120_000 }, async () => {
    await expectRemovalEnds(tNever, clientNever, peers.never.port, 'remove');
  });
});
