// Fault drills through the app: Portico as a real process, runs started over HTTP as
// the browser starts them, on lab servers that also serve an unrelated site. Each fault ends the
// run (never left deploying) with a message naming the cause in the requester's language; once
// the fault is gone the proxy deploys; the unrelated site serves what it served before.
// s1: a plain server; s2: nginx installed but stopped; s3: port 80 held by another program.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../testbed/src/lab';
import { say } from '../../src/deploy/engine/messages';
import type { HttpClient } from '../support/lab-app-helpers';
import { progressLines, watch } from '../support/ws-test-helpers';
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
  unrelatedSite,
} from './drill-helpers';
import { cutSshWhen, setLink, startPebble, stopPebble } from './lab-faults';

let lab: TLab;
let s1: TLabServer;
let s2: TLabServer;
let s3: TLabServer;
let portico: DrillPortico;
let client: HttpClient;

beforeAll(async () => {
  lab = await startLab({
    servers: 3,
    variants: {
      s1: ['existing-site'],
      s2: ['nginx-stopped', 'existing-site'],
      s3: ['port80-busy', 'existing-site'],
    },
  });
  [s1, s2, s3] = lab.status.servers as [TLabServer, TLabServer, TLabServer];
  portico = new DrillPortico(lab);
  await portico.start();
  client = await registered(portico.base, 'driller');
});

afterAll(async () => {
  await portico?.close();
  await lab?.stop();
});

describe('the SSH connection cut in the middle of a run', () => {
  it('fails naming the lost connection (es), leaves nginx valid, and deploys on retry', async () => {
    const before = await unrelatedSite(lab, s1);
    expect(before.answer).toBe('200 legacy site on s1');
    const domain = s1.domains[0]!;
    const id = await saveProxy(client, proxyBody(lab, s1, domain));

    // Cut while certbot talks to the CA: the longest step, and one that changes the server.
    const cut = cutSshWhen(lab, s1, 'ps -eo comm= | grep -qx certbot');
    const deploymentId = await startRun(client, id, 'es');
    expect(await cut).toMatch(/^cut \d+/);
    const run = await endOf(client, id, deploymentId, 'es');
    expect(run.status, run.text).toBe('failed');
    expect(run.last.level).toBe('error');
    expect(run.last.message).toContain(say('es', 'ssh.closedMidCommand'));
    expect(run.last.message).toContain('El servidor o la red cortaron la conexión');
    expect(await nginxTest(lab, s1)).toContain('test is successful');
    expect(await unrelatedSite(lab, s1)).toEqual(before);

    const again = await runToEnd(client, id, 'en', 'redeploy');
    expect(again.status, again.text).toBe('completed');
    expect(await servesHttps(lab, s1, domain)).toBe(domain);
    expect(await unrelatedSite(lab, s1)).toEqual(before);
  });
});

describe('sudo refused', () => {
  it('fails at connect in Spanish naming sudo; deploys once the user may use sudo', async () => {
    const before = await unrelatedSite(lab, s1);
    await lab.exec(
      s1.name,
      ['bash', '-c', 'useradd --create-home --shell /bin/bash nosudo && chpasswd'],
      'nosudo:No-sudo-pw-1\n',
    );
    const domain = s1.domains[2]!;
    const id = await saveProxy(
      client,
      proxyBody(lab, s1, domain, { user: 'nosudo', password: 'No-sudo-pw-1' }),
    );
    const run = await runToEnd(client, id, 'es');
    expect(run.status, run.text).toBe('failed');
    expect(run.last.level).toBe('error');
    expect(run.last.message).toContain('sudo');
    expect(run.last.message).toMatch(/El usuario nosudo no tiene permiso para usar sudo/);
    expect(run.text).not.toContain('No-sudo-pw-1');
    expect(await unrelatedSite(lab, s1)).toEqual(before);

    await lab.exec(s1.name, ['usermod', '-aG', 'sudo', 'nosudo']);
    const again = await runToEnd(client, id, 'es', 'redeploy');
    expect(again.status, again.text).toBe('completed');
    expect(again.text).toContain('sudo funciona: nosudo puede actuar como root.');
    expect(await servesHttps(lab, s1, domain)).toBe(domain);
    expect(await unrelatedSite(lab, s1)).toEqual(before);
  });
});

describe('nginx stopped before the run', () => {
  it('starts nginx, says so, deploys, and the unrelated site is served again unchanged', async () => {
    const before = await unrelatedSite(lab, s2);
    expect(before.answer).toMatch(/^no answer/);
    const domain = s2.domains[0]!;
    const id = await saveProxy(client, proxyBody(lab, s2, domain));
    const run = await runToEnd(client, id, 'es');
    expect(run.status, run.text).toBe('completed');
    expect(run.text).toContain('nginx no está en marcha.');
    expect(run.text).toContain('Iniciando nginx.');
    expect(await servesHttps(lab, s2, domain)).toBe(domain);
    const after = await unrelatedSite(lab, s2);
    expect(after.files).toBe(before.files);
    expect(after.answer).toBe('200 legacy site on s2');
  });
});

describe('the link to the server dropped in the middle of a run', () => {
  it('fails within the keepalive naming the dropped connection; deploys once the link is back', async () => {
    const before = await unrelatedSite(lab, s2);
    // After the nginx-stopped drill, which shares s2.
    const domain = s2.domains[1]!;
    const id = await saveProxy(client, proxyBody(lab, s2, domain));
    const live = watch(
      portico.base,
      id,
      { cookie: client.cookieHeader(), origin: portico.base },
      '&lang=en',
    );
    const deploymentId = await startRun(client, id, 'en');
    try {
      // Dropped while certbot talks to the CA: the connection goes silent rather than closed.
      const requesting = say('en', 'certificate.requesting').split(' for ')[0]!;
      await live.waitFor(
        (m) => progressLines(m).some((l) => l.message.startsWith(requesting)),
        60_000,
      );
      await setLink(lab, s2, 'down');
      const run = await endOf(client, id, deploymentId, 'en');
      expect(run.status, run.text).toBe('failed');
      // ssh2's keepalive gives up after 30 s: the connection is lost under the running command
      // or under the next one it starts, whichever the drop hit.
      expect(run.last.message).toMatch(
        /^(The connection (closed before the command finished|to \S+ stopped answering)|The SSH connection is closed)\./,
      );
      expect(run.last.message).toContain(say('en', 'failure.hintConnectionLost'));
    } finally {
      live.close();
      await setLink(lab, s2, 'up');
    }
    expect(await nginxTest(lab, s2)).toContain('test is successful');
    expect(await unrelatedSite(lab, s2)).toEqual(before);
    const again = await runToEnd(client, id, 'en', 'redeploy');
    expect(again.status, again.text).toBe('completed');
    expect(await servesHttps(lab, s2, domain)).toBe(domain);
    expect(await unrelatedSite(lab, s2)).toEqual(before);
  });
});

describe('port 80 held by another program', () => {
  it('fails at preflight naming the program and its pid; deploys once it is gone', async () => {
    const before = await unrelatedSite(lab, s3);
    expect(before.answer).toMatch(/not nginx/);
    const domain = s3.domains[0]!;
    const id = await saveProxy(client, proxyBody(lab, s3, domain));
    const run = await runToEnd(client, id, 'en');
    expect(run.status, run.text).toBe('failed');
    expect(run.last.message).toMatch(
      /nginx cannot serve this site: port 80 \(.*\) is held by python3 \(pid \d+\)/,
    );
    expect(await unrelatedSite(lab, s3)).toEqual(before);
    const inSpanish = await runToEnd(client, id, 'es', 'redeploy');
    expect(inSpanish.status).toBe('failed');
    expect(inSpanish.last.message).toMatch(
      /nginx no puede servir este sitio: el puerto 80 \(.*\) lo ocupa python3 \(pid \d+\)/,
    );
    expect(await unrelatedSite(lab, s3)).toEqual(before);

    const pid = /pid (\d+)/.exec(run.last.message)![1]!;
    await lab.exec(s3.name, ['kill', pid]);
    const again = await runToEnd(client, id, 'en', 'redeploy');
    expect(again.status, again.text).toBe('completed');
    expect(await servesHttps(lab, s3, domain)).toBe(domain);
    const after = await unrelatedSite(lab, s3);
    expect(after.files).toBe(before.files);
    expect(after.answer).toBe('200 legacy site on s3');
  });
});

// Last: Pebble makes a new root when it starts again, so earlier certificates stop verifying.
describe('the ACME CA stopped', () => {
  it('fails at the certificate step naming the unreachable CA; deploys once it is back', async () => {
    const before = await unrelatedSite(lab, s1);
    const domain = s1.domains[1]!;
    const id = await saveProxy(client, proxyBody(lab, s1, domain));
    await stopPebble(lab);
    try {
      const run = await runToEnd(client, id, 'en');
      expect(run.status, run.text).toBe('failed');
      expect(run.last.message).toContain(`certbot could not get a certificate for ${domain}`);
      expect(run.last.message).toContain(
        `certbot could not reach the certificate authority at ${lab.status.acmeDirectoryUrl}`,
      );
      // Not the challenge hint: nothing about the domain's DNS or port 80 is at fault.
      expect(run.last.message).not.toContain('acme-challenge');
      expect(await nginxTest(lab, s1)).toContain('test is successful');
      expect(await unrelatedSite(lab, s1)).toEqual(before);
      const inSpanish = await runToEnd(client, id, 'es', 'redeploy');
      expect(inSpanish.status).toBe('failed');
      expect(inSpanish.last.message).toContain(
        `certbot no pudo obtener un certificado para ${domain}. certbot no pudo contactar desde el servidor con la autoridad de certificación en ${lab.status.acmeDirectoryUrl}`,
      );
    } finally {
      await startPebble(lab);
    }
    // Pebble keeps its accounts in memory, so the restarted one does not know the account certbot
    // registered before (a real CA coming back keeps it); certbot registers anew without it.
    await lab.exec(s1.name, ['rm', '-rf', '/etc/letsencrypt/accounts']);
    const again = await runToEnd(client, id, 'en', 'redeploy');
    expect(again.status, again.text).toBe('completed');
    expect(await servesHttps(lab, s1, domain)).toBe(domain);
    expect(await unrelatedSite(lab, s1)).toEqual(before);
  });
});
