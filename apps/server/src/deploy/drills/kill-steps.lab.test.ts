// Portico killed with SIGKILL at each engine step (issue 8), then started again on the same data:
// the run is started again once and completes; killed twice it ends failed saying it was
// interrupted, in the requester's language. Nothing stays deploying, the unrelated site on the
// server keeps serving, and nginx stays valid whatever step the process died in.
import type { TLanguage } from '@portico/shared/api-error';
import { sharedCatalogs } from '@portico/shared/i18n/translate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import type { HttpClient } from '../../modules/deployments/lab-app-helpers';
import { progressLines, watch } from '../../realtime/ws-test-helpers';
import { say } from '../engine/messages';
import {
  DrillPortico,
  endOf,
  nginxTest,
  proxyBody,
  registered,
  runToEnd,
  saveProxy,
  servesHttps,
  startRun,
  stillDeploying,
  unrelatedSite,
  uploadScript,
} from './drill-helpers';

// The engine's steps in run order (run-deployment.ts), each with the catalog key of the line it
// logs first: the drill kills Portico the moment that line reaches the browser's socket.
const STEPS = [
  { step: 'connect', key: 'connect.firstTime' },
  { step: 'detect-os', key: 'os.reading' },
  { step: 'preflight', key: 'preflight.checking' },
  { step: 'packages', key: 'packages.checking' },
  { step: 'http-site', key: 'site.writingHttp' },
  { step: 'certificate', key: 'certificate.requesting' },
  { step: 'https-site', key: 'site.writingHttps' },
  { step: 'custom-script', key: 'script.uploading' },
  { step: 'verify', key: 'verify.connecting' },
] as const;

/** The catalog sentence up to its first value: how the step's first line starts. */
function startOf(language: TLanguage, key: string): string {
  let node: unknown = sharedCatalogs[language].deployLog;
  for (const part of key.split('.')) node = (node as Record<string, unknown>)[part];
  return (node as string).split('{{')[0]!;
}

let lab: TLab;
let s1: TLabServer;
let portico: DrillPortico;
let client: HttpClient;

beforeAll(async () => {
  lab = await startLab({ servers: 1, variants: { s1: ['existing-site'] } });
  [s1] = lab.status.servers as [TLabServer];
  portico = new DrillPortico(lab);
  await portico.start();
  client = await registered(portico.base, 'killer');
});

afterAll(async () => {
  await portico?.close();
  await lab?.stop();
});

/** Starts watching, then waits for the `count`-th line starting with `start` and kills Portico. */
async function killAt(id: string, start: string, count = 1) {
  const live = watch(portico.base, id, { cookie: client.cookieHeader(), origin: portico.base });
  try {
    const seen = () => progressLines(live.messages).filter((l) => l.message.startsWith(start));
    await live.waitFor(() => seen().length >= count, 90_000);
    await portico.kill();
    return seen().at(-1)!.deploymentId;
  } finally {
    live.close();
  }
}

async function restart() {
  await portico.start();
  client = portico.client(client);
}

async function freshDomain(name: string) {
  const domain = `${name}.${s1.name}.portico.test`;
  await lab.point(domain, s1.name);
  return domain;
}

describe('Portico killed at each engine step, then started again', () => {
  it.each(STEPS.map((s, i) => ({ ...s, language: (i % 2 ? 'es' : 'en') as TLanguage })))(
    'killed at $step ($language): the run is started again and completes',
    async ({ step, key, language }) => {
      const before = await unrelatedSite(lab, s1);
      const domain = await freshDomain(`kill-${step}`);
      const id = await saveProxy(client, proxyBody(lab, s1, domain));
      if (step === 'custom-script') {
        await uploadScript(client, id, 'drill.sh', 'sleep 2\necho drill script ran\n');
      }
      const deploymentId = await startRun(client, id, language);
      const killedIn = await killAt(id, startOf(language, key));
      expect(killedIn).toBe(deploymentId);
      expect(await nginxTest(lab, s1)).toContain('test is successful');

      await restart();
      const run = await endOf(client, id, deploymentId);
      expect(run.status, run.text).toBe('completed');
      const messages = run.lines.map((l) => l.message);
      expect(messages).toContain(say(language, 'job.interruptedRetry'));
      // The step's first line twice: the killed attempt and the one after the restart.
      const start = startOf(language, key);
      expect(messages.filter((m) => m.startsWith(start)).length, run.text).toBeGreaterThanOrEqual(
        2,
      );
      expect(run.last.level).toBe('success');
      expect(await servesHttps(lab, s1, domain)).toBe(domain);
      expect(await unrelatedSite(lab, s1)).toEqual(before);
    },
  );

  it('killed again during the retry: failed, saying it was interrupted (es); a redeploy completes', async () => {
    const before = await unrelatedSite(lab, s1);
    const domain = await freshDomain('kill-twice');
    const id = await saveProxy(client, proxyBody(lab, s1, domain));
    const deploymentId = await startRun(client, id, 'es');
    const start = startOf('es', 'certificate.requesting');
    await killAt(id, start);
    await portico.start();
    client = portico.client(client);
    // The socket replays the first attempt too: the second such line is the retry's.
    await killAt(id, start, 2);

    await restart();
    const run = await endOf(client, id, deploymentId);
    expect(run.status, run.text).toBe('failed');
    expect(run.last).toMatchObject({
      level: 'error',
      message: say('es', 'job.interruptedFailed'),
    });
    expect(run.last.message).toContain('se volvió a interrumpir');
    expect(await nginxTest(lab, s1)).toContain('test is successful');
    expect(await unrelatedSite(lab, s1)).toEqual(before);

    const again = await runToEnd(client, id, 'es', 'redeploy');
    expect(again.status, again.text).toBe('completed');
    expect(await servesHttps(lab, s1, domain)).toBe(domain);
    expect(await unrelatedSite(lab, s1)).toEqual(before);
    expect(await stillDeploying(client)).toEqual([]);
  });
});
