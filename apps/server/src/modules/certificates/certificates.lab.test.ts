// The certificate features through the API on a real lab server (sshd, nginx, certbot, Pebble),
// in one deployed proxy's life: Test renewal and Renew now stream their output into the log and
// Renew now ends with a new certificate served (its fingerprint changes); the watch, its clock
// moved (`clock`), goes fine → warning → danger, and the owner's webhook (a local HTTP sink) and
// e-mail (a local SMTP sink) get exactly one alert per change, none for repeated checks, in the
// owner's language; a renewal that succeeded on the server while nginx kept the old certificate
// (certbot run with its reload hook replaced) is reported as nginx not reloaded.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import {
  certificateCalls,
  deployedAndChecked,
  waitUntil,
} from '../../../test/support/certificate-lab-helpers';
import { startHttpSink, type THttpSink } from '../../../test/support/http-sink';
import { rootProxy } from '../../../test/support/lab-app-helpers';
import { startFakeCertbot } from '../../../test/support/lab-helpers';
import { inProcessLabApp } from '../../../test/support/lab-in-process-app';
import { verifyAlertEmail } from '../../../test/support/notifications-test-helpers';
import { signedInClient } from '../../../test/support/proxies-test-helpers';
import { readMail, startSmtpSink, type TSmtpSink } from '../../../test/support/smtp-sink';
import { TEST_APP_OPTIONS, type TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { cookieHeader, progressLines, watch } from '../../../test/support/ws-test-helpers';
import { CERTBOT_WAIT_S } from '../../deploy/engine/certificate';
import { say } from '../../deploy/engine/messages';
import { certName } from '../../deploy/site-names';
import { tlsHandshake } from '../../net/tls-probe';

const DAY = 24 * 60 * 60 * 1000;

let lab: TLab;
let s1: TLabServer;
let t: TTestApp;
let base: string;
let webhook: THttpSink;
let smtp: TSmtpSink;
/** The time the app judges certificates by; the tests move it. */
let clockMs: number | undefined;

beforeAll(async () => {
  lab = await startLab({ servers: 1 });
  s1 = lab.status.servers[0]!;
  webhook = await startHttpSink();
  smtp = await startSmtpSink();
  const started = await inProcessLabApp(lab.status, {
    clock: () => clockMs ?? Date.now(),
    config: {
      ...TEST_APP_OPTIONS.config,
      // The sinks listen on loopback.
      webhookAllowPrivate: true,
      smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
      mailFrom: 'Portico <portico@example.test>',
    },
  });
  t = started;
  base = started.base;
});

afterAll(async () => {
  await t?.close();
  await webhook?.close();
  await smtp?.close();
  await lab?.stop();
});

async function servedFingerprint(domain: string): Promise<string> {
  const ca = readFileSync(lab.status.caRootPath, 'utf8');
  const hs = await tlsHandshake(
    { address: s1.address, domain },
    { ca: [ca], timeoutMs: 10_000, rejectUnauthorized: true },
  );
  return hs.cert.fingerprint256;
}

describe('a deployed certificate on a lab server, through the API', () => {
  let client: TestClient;
  let id: string;
  const domain = () => s1.domains[0]!;
  const { status, checkNow } = certificateCalls(
    () => client,
    () => id,
    () => {
      if (clockMs !== undefined) clockMs += 1000;
    },
  );

  /** Starts an action, follows its run on the socket to its end; its lines and the run's end. */
  async function action(path: 'renew' | 'renew-test', lang: 'en' | 'es') {
    const live = watch(
      base,
      id,
      { cookie: cookieHeader(client.cookies), origin: base },
      `&lang=${lang}`,
    );
    try {
      const started = await client.write(
        'POST',
        `/api/proxy-configurations/${id}/certificate/${path}`,
        undefined,
        { 'accept-language': lang },
      );
      expect(started.statusCode, started.body).toBe(202);
      const { deploymentId } = started.json();
      const ended = await waitUntil(
        status,
        (s) =>
          s.lastAction?.deploymentId === deploymentId &&
          /completed|failed/.test(s.lastAction.status),
        `${path} did not end`,
      );
      const stored = (
        await client.request({
          method: 'GET',
          url: `/api/deployment-logs/${id}`,
          headers: { 'accept-language': lang },
        })
      ).json() as { deploymentId: string; message: string }[];
      const lines = stored.filter((l) => l.deploymentId === deploymentId).map((l) => l.message);
      // Every line also came live over the socket, in the order stored.
      const streamed = () =>
        progressLines(live.messages)
          .filter((l) => l.deploymentId === deploymentId)
          .map((l) => l.message);
      await live.waitFor(() => streamed().length >= lines.length);
      expect(streamed()).toEqual(lines);
      return { run: ended.lastAction, lines };
    } finally {
      live.close();
    }
  }

  beforeAll(async () => {
    ({ client } = await signedInClient(t));
    // Alerts go in the language the owner's screen is in.
    await client.write('PUT', '/api/account/language', { language: 'es' });
    // E-mail goes only to a verified address: verified as a user does, with the mailed code.
    await verifyAlertEmail(client, smtp);
    const hook = await client.write('PUT', '/api/account/notifications', {
      emailEnabled: true,
      webhookUrl: webhook.url('/alerts'),
    });
    expect(hook.statusCode, hook.body).toBe(200);
    id = await deployedAndChecked(client, rootProxy(lab.status, s1, domain()));
  });

  it('Test renewal streams certbot dry run and changes nothing; Renew now streams, and the new certificate is served', async () => {
    const name = certName(domain());
    const first = await servedFingerprint(domain());
    const test = await action('renew-test', 'en');
    expect(test.run.status).toBe('completed');
    expect(test.lines).toContain(say('en', 'certAction.testing', { name }));
    // certbot's own words, verbatim, as they came.
    expect(
      test.lines.some((l) => /simulat/i.test(l)),
      test.lines.join('\n'),
    ).toBe(true);
    expect(test.lines.at(-1)).toBe(say('en', 'certAction.testPassed', { name }));
    expect(await servedFingerprint(domain())).toBe(first);

    const renew = await action('renew', 'es');
    expect(renew.run.status, renew.lines.join('\n')).toBe('completed');
    expect(renew.lines).toContain(say('es', 'certAction.renewing', { name }));
    expect(
      renew.lines.some((l) => /renewals succeeded/i.test(l)),
      renew.lines.join('\n'),
    ).toBe(true);
    const after = await servedFingerprint(domain());
    expect(after).not.toBe(first);
    const shown = await status();
    expect(shown.served.fingerprint).toBe(after);
    expect(shown.onServer.fingerprint).toBe(after);
    expect(shown.nginxNotReloaded).toBe(false);
    expect(renew.lines.at(-1)).toBe(
      say('es', 'certCheck.servesNew', {
        domain: domain(),
        fingerprint: after,
        notAfter: { date: shown.served.notAfter },
      }),
    );
  });

  it('Test renewal waits for a certbot already at work on the server, says so once, and completes', async () => {
    const name = certName(domain());
    await startFakeCertbot(lab, s1.name, 4);
    const test = await action('renew-test', 'en');
    expect(test.run.status, test.lines.join('\n')).toBe('completed');
    const waiting = say('en', 'certificate.waitingOther', { seconds: CERTBOT_WAIT_S });
    expect(test.lines.filter((l) => l === waiting)).toHaveLength(1);
    expect(test.lines.indexOf(waiting)).toBeGreaterThan(
      test.lines.indexOf(say('en', 'certAction.testing', { name })),
    );
    expect(test.lines.at(-1)).toBe(say('en', 'certAction.testPassed', { name }));
    expect(test.lines.join('\n')).not.toContain('PORTICO_');
  });

  it('the watch, its clock moved: fine → warning → danger, one alert per change by webhook and e-mail, in Spanish', async () => {
    const now = await status();
    expect(now.state).toBe('fine');
    const notBefore = Date.parse(now.served.notBefore);
    const notAfter = Date.parse(now.served.notAfter);
    const hooks = webhook.requests.length;
    const mails = smtp.messages.length;

    // A quarter of the lifetime left: warning. Checked twice, alerted once.
    clockMs = notAfter - (notAfter - notBefore) / 4;
    expect((await checkNow()).state).toBe('warning');
    expect((await checkNow()).state).toBe('warning');
    // Three and a half days left: danger ("in 3 days").
    clockMs = notAfter - 3.5 * DAY;
    expect((await checkNow()).state).toBe('danger');
    expect((await checkNow()).state).toBe('danger');
    const received = await webhook.waitFor(hooks + 2);
    // Give a wrongly repeated alert the time to arrive before counting.
    await checkNow();
    await new Promise((r) => setTimeout(r, 1000));
    expect(webhook.requests.slice(hooks).map((r) => r.json?.event)).toEqual(['warning', 'danger']);
    const [warning, danger] = received.slice(hooks);
    expect(warning!.path).toBe('/alerts');
    expect(String(warning!.json?.text)).toMatch(
      new RegExp(
        `^El certificado de ${domain().replaceAll('.', '\\.')} caduca dentro de \\d+ días`,
      ),
    );
    expect(String(danger!.json?.text)).toMatch(/^Urgente: el certificado de /);
    expect(String(danger!.json?.text)).toContain('dentro de 3 días');
    const mail = (await smtp.waitFor(mails + 2)).slice(mails);
    expect(smtp.messages.length - mails).toBe(2);
    // The e-mails as the owner reads them: the same change, in the owner's language.
    const [warningMail, dangerMail] = mail.map(readMail);
    expect(warningMail!.subject).toMatch(
      new RegExp(
        `^El certificado de ${domain().replaceAll('.', '\\.')} caduca dentro de \\d+ días$`,
      ),
    );
    expect(warningMail!.text).toContain('le queda menos de un tercio de su vida');
    expect(dangerMail!.subject).toMatch(/^Urgente: el certificado de .* caduca dentro de 3 días$/);
    expect(dangerMail!.text).toContain('Abre el proxy en Portico y usa "Renovar ahora"');
    // Back to the real time: fine again, and an improvement is not alerted.
    clockMs = undefined;
    expect((await checkNow()).state).toBe('fine');
    await new Promise((r) => setTimeout(r, 1000));
    expect(webhook.requests.length).toBe(hooks + 2);
  });

  it('a renewal on the server that nginx did not pick up is reported as nginx not reloaded', async () => {
    const served = await servedFingerprint(domain());
    const hooks = webhook.requests.length;
    // certbot renews as a scheduler would, but its reload hook is replaced by one doing nothing.
    const renew = await lab.exec(s1.name, [
      'certbot',
      'renew',
      '--cert-name',
      certName(domain()),
      '--force-renewal',
      '--no-random-sleep-on-renew',
      '--non-interactive',
      '--server',
      lab.status.acmeDirectoryUrl,
      '--deploy-hook',
      'true',
    ]);
    expect(renew.code, renew.stdout + renew.stderr).toBe(0);
    expect(await servedFingerprint(domain())).toBe(served);
    // Test renewal reads certbot's certificate on the server; the next check compares.
    expect((await action('renew-test', 'en')).run.status).toBe('completed');
    const checked = await checkNow();
    expect(checked.nginxNotReloaded).toBe(true);
    expect(checked.served.fingerprint).toBe(served);
    expect(checked.onServer.fingerprint).not.toBe(served);
    const [alert] = (await webhook.waitFor(hooks + 1)).slice(hooks);
    expect(alert!.json?.event).toBe('notReloaded');
    expect(String(alert!.json?.text)).toMatch(/^nginx sigue sirviendo el certificado antiguo de /);
    await checkNow();
    await new Promise((r) => setTimeout(r, 1000));
    expect(webhook.requests.length).toBe(hooks + 1);
  });
});
