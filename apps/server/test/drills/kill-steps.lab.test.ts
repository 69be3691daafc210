// Portico killed with SIGKILL at each engine step, then started again on the same data:
// the run is started again once and completes; killed twice it ends failed saying it was
// interrupted, in the requester's language. Nothing stays deploying, the unrelated site on the
// server keeps serving, and nginx stays valid whatever step the process died in.
// One kill cuts up to three runs, each held in its step on its own server (lab-faults freeze),
// so the ten steps cost four restarts of Portico rather than ten.
import type { TLanguage } from '@portico/shared/api-error';
import { sharedCatalogs } from '@portico/shared/i18n/translate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../testbed/src/lab';
import { say } from '../../src/deploy/engine/messages';
import type { HttpClient } from '../support/lab-app-helpers';
import { progressLines, watch } from '../support/ws-test-helpers';
import {
  DrillPortico,
  endOf,
  logsOf,
  nginxTest,
  proxyBody,
  registered,
  runToEnd,
  saveProxy,
  servesHttps,
  settled,
  startRun,
  stillDeploying,
  unrelatedSite,
  uploadScript,
} from './drill-helpers';
import { freeze, thaw } from './lab-faults';
import { expectShownAsOnServer, resetAndDelete, shownOf, siteOnServer } from './site-truth';

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
  { step: 'renewal', key: 'renewal.checking' },
] as const;

/** The catalog sentence up to its first value: how the step's first line starts. */
function startOf(language: TLanguage, key: string): string {
  let node: unknown = sharedCatalogs[language].deployLog;
  for (const part of key.split('.')) node = (node as Record<string, unknown>)[part];
  return (node as string).split('{{')[0]!;
}

let lab: TLab;
let servers: TLabServer[];
let portico: DrillPortico;
let client: HttpClient;

beforeAll(async () => {
  lab = await startLab({ servers: 4, variants: { '*': ['existing-site'] } });
  servers = lab.status.servers;
  portico = new DrillPortico(lab);
  await portico.start();
  client = await registered(portico.base, 'killer');
});

afterAll(async () => {
  for (const server of servers ?? []) thaw(lab, server);
  await portico?.close();
  await lab?.stop();
});

interface TDrill {
  step: string;
  start: string;
  language: TLanguage;
  server: TLabServer;
  domain: string;
  id: string;
  deploymentId: string;
  before: Awaited<ReturnType<typeof unrelatedSite>>;
}

/** A fresh domain on the server (its own DNS answer), so every run is a first deployment. */
async function drillOn(server: TLabServer, step: (typeof STEPS)[number], language: TLanguage) {
  const domain = `kill-${step.step}.${server.name}.portico.test`;
  await lab.point(domain, server.name);
  const id = await saveProxy(client, proxyBody(lab, server, domain));
  if (step.step === 'custom-script') {
    await uploadScript(client, id, 'drill.sh', 'echo drill script ran\n');
  }
  const before = await unrelatedSite(lab, server);
  const start = startOf(language, step.key);
  return { step: step.step, start, language, server, domain, id, deploymentId: '', before };
}

/**
 * Waits for the `count`-th line starting the drill's step, then freezes its server there. The
 * connect step's server is frozen before the run starts instead: its first line comes just
 * before the login, whose answer (carrying the preflight's facts too) can be back before a
 * freeze sent on seeing that line lands, and a frozen sshd holds the login itself.
 */
async function holdAt(drill: TDrill, count = 1): Promise<void> {
  const beforehand = drill.step === 'connect' && count === 1;
  if (beforehand) freeze(lab, drill.server);
  const live = watch(
    portico.base,
    drill.id,
    { cookie: client.cookieHeader(), origin: portico.base },
    `&lang=${drill.language}`,
  );
  try {
    const seen = () =>
      progressLines(live.messages).filter((l) => l.message.startsWith(drill.start));
    await live.waitFor(() => seen().length >= count, 90_000);
    if (!beforehand) freeze(lab, drill.server);
  } finally {
    live.close();
  }
}

async function restart() {
  await portico.start();
  client = portico.client(client);
}

/** Starts the drills' runs, holds each in its step, kills Portico, lets the servers go. */
async function killHeld(drills: TDrill[]) {
  const held = Promise.all(drills.map((d) => holdAt(d)));
  for (const d of drills) d.deploymentId = await startRun(client, d.id, d.language);
  await held;
  await portico.kill();
  for (const d of drills) thaw(lab, d.server);
  for (const d of drills) {
    expect(await nginxTest(lab, d.server), d.step).toContain('test is successful');
  }
}

async function expectRetried(drill: TDrill) {
  const run = await endOf(client, drill.id, drill.deploymentId, drill.language);
  expect(run.status, `${drill.step}\n${run.text}`).toBe('completed');
  const messages = run.lines.map((l) => l.message);
  const retry = messages.indexOf(say(drill.language, 'job.interruptedRetry'));
  expect(retry, run.text).toBeGreaterThan(0);
  // Cut in its step: the killed attempt logged the step's first line, and no line of the step
  // after the next one (the next step's first line needs no SSH, so on a busy machine it may be
  // logged before the freeze lands). Only the custom-script drill has a script to run.
  const killed = messages.slice(0, retry);
  expect(
    killed.filter((m) => m.startsWith(drill.start)),
    run.text,
  ).toHaveLength(1);
  const steps = STEPS.filter((s) => s.step !== 'custom-script' || drill.step === 'custom-script');
  // detect-os, preflight and packages (nothing to install here) log from the remote preflight's
  // answer, which came with the connect step's root check: from detect-os the run asks the
  // server nothing until the http-site step's script, so that is where the freeze holds it.
  // http-site's first line is logged before that script and may come before the kill; the
  // script's own answer ("Wrote …") is the line it must not reach.
  const heldInHttpSite = drill.step === 'detect-os' || drill.step === 'preflight';
  const afterNext = heldInHttpSite
    ? { key: 'nginx.wrote' }
    : steps[steps.findIndex((s) => s.step === drill.step) + 2];
  if (afterNext) {
    const beyond = startOf(drill.language, afterNext.key);
    expect(
      killed.some((m) => m.startsWith(beyond)),
      `${drill.step}\n${run.text}`,
    ).toBe(false);
  }
  expect(run.last.level).toBe('success');
  expect(await servesHttps(lab, drill.server, drill.domain)).toBe(drill.domain);
  expect(await unrelatedSite(lab, drill.server)).toEqual(drill.before);
  // The record of what is on the server, kept through the kill, is exact again.
  await expectShownAsOnServer(lab, drill.server, client, drill.id, drill.domain);
}

const language = (i: number): TLanguage => (i % 2 ? 'es' : 'en');

describe('Portico killed at each engine step, then started again', () => {
  it.each(
    // The renewal check is held alone: held beside the verification, whose HTTPS check gives up
    // after 10 s, it would come too late (it runs after its own verification).
    [0, 3, 9].map((first) => ({
      first,
      steps: STEPS.slice(first, first + 3)
        .map((s) => s.step)
        .join(', '),
    })),
  )(
    'killed at $steps (up to three runs at once): each run is started again and completes',
    async ({ first }) => {
      const drills: TDrill[] = [];
      for (const [j, step] of STEPS.slice(first, first + 3).entries()) {
        drills.push(await drillOn(servers[j]!, step, language(first + j)));
      }
      // A request that died before it recorded its run (see strandClaim), beside the cut runs.
      const orphan =
        first === 0
          ? await saveProxy(client, proxyBody(lab, servers[3]!, 'never-started.s4.portico.test'))
          : undefined;
      await killHeld(drills);
      if (orphan) await portico.strandClaim(orphan);
      await restart();
      for (const d of drills) await expectRetried(d);
      if (orphan) {
        expect(await settled(client, orphan)).toBe('failed');
        expect((await logsOf(client, orphan, undefined, 'es')).at(-1)).toMatchObject({
          level: 'error',
          deploymentId: null,
          message: say('es', 'job.neverStarted'),
        });
      }
    },
  );

  it('killed at the last steps, and one run killed again in its retry: failed as interrupted (es); a redeploy completes', async () => {
    const drills: TDrill[] = [];
    for (const [j, step] of STEPS.slice(6, 9).entries()) {
      drills.push(await drillOn(servers[j]!, step, language(6 + j)));
    }
    const certificate = STEPS.find((s) => s.step === 'certificate')!;
    const twice = await drillOn(servers[3]!, certificate, 'es');
    await killHeld([...drills, twice]);
    await restart();
    // The socket replays the first attempt too: the second such line is the retry's.
    const heldAgain = holdAt(twice, 2);
    for (const d of drills) await expectRetried(d);
    await heldAgain;
    await portico.kill();
    thaw(lab, twice.server);
    expect(await nginxTest(lab, twice.server)).toContain('test is successful');

    await restart();
    const run = await endOf(client, twice.id, twice.deploymentId, 'es');
    expect(run.status, run.text).toBe('failed');
    expect(run.last).toMatchObject({ level: 'error', message: say('es', 'job.interruptedFailed') });
    expect(run.last.message).toContain('se volvió a interrumpir');
    expect(await unrelatedSite(lab, twice.server)).toEqual(twice.before);
    // Cut twice in the certificate step: the record holds at least what the server has, marked
    // unconfirmed (the certificate was announced, and nobody looked again).
    const cut = await siteOnServer(lab, twice.server, twice.domain);
    const shownCut = await shownOf(client, twice.id);
    expect(shownCut.lastFailure).toMatchObject({ code: 'interrupted' });
    const [recorded] = shownCut.serverSites;
    expect(recorded).toMatchObject({ domain: twice.domain, unconfirmed: true });
    expect(cut.files.length).toBeGreaterThan(0);
    for (const file of cut.files) expect(recorded.files).toContain(file);
    expect(recorded.certificate).not.toBeNull();

    const again = await runToEnd(client, twice.id, 'es', 'redeploy');
    expect(again.status, again.text).toBe('completed');
    expect(await servesHttps(lab, twice.server, twice.domain)).toBe(twice.domain);
    expect(await unrelatedSite(lab, twice.server)).toEqual(twice.before);
    await expectShownAsOnServer(lab, twice.server, client, twice.id, twice.domain);
    // Reset, then delete with removal: no trace of the site stays.
    await resetAndDelete(lab, twice.server, client, twice.id, twice.domain, twice.before);
    expect(await stillDeploying(client)).toEqual([]);
  });
});
