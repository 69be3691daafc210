import type { Page } from '@playwright/test';
import { signIn } from './fixtures/auth';
import { type TLang, text } from './fixtures/catalog';
import {
  api,
  deploymentLogs,
  holdScript,
  saveConfiguration,
  uploadScript,
  waitForRunEnd,
} from './fixtures/lab-api';
import { expect, fetchSite, type TLabApp, test } from './fixtures/lab-app';
import { capturePng } from './fixtures/screenshots';
import { watchBrowserTraffic } from './fixtures/secret-watch';
import { chooseLanguage, expectSaidOnce, expectToast, toast } from './fixtures/ui';
import { uniqueUser } from './fixtures/users';
import { capture, expectStep, fillServerInfo, panelMessages } from './fixtures/wizard';

// The wizard on real lab servers: sshd, nginx, certbot and Pebble in namespaces (testbed/).

async function completeWizard(page: Page, app: TLabApp, lang: TLang, serverName: string) {
  const server = app.server(serverName);
  const domain = server.domains[0] as string;
  const area = `wizard-${lang}`;
  const received = watchBrowserTraffic(page);

  await test.step('home → create proxy → server info', async () => {
    await page.goto('/');
    await page.getByTestId('create-proxy').click();
    await expect(page).toHaveURL(/\/proxy-wizard$/);
    await expectStep(page, 'server-info');
    await capture(page, area, '1-server-info-empty');
    await fillServerInfo(page, lang, {
      serverIp: server.address,
      domain,
      password: app.rootPassword(serverName),
    });
    await capture(page, area, '1-server-info-filled');
    await page.getByTestId('wizard-next').click();
  });

  await test.step('DNS then SSH run by themselves; the host key fingerprint is shown', async () => {
    await expectStep(page, 'dns-validation');
    await expect(page.getByTestId('wizard-dns')).toHaveAttribute('data-status', 'verified');
    await expect(page.getByTestId('wizard-dns-actual')).toHaveText(server.address);
    await expect(page.getByTestId('wizard-ssh')).toHaveAttribute('data-status', 'verified');
    await expect(page.getByTestId('wizard-ssh-fingerprint')).toHaveText(server.hostKeyFingerprint);
    await expect(page.getByTestId('wizard-ssh')).toContainText(
      text(lang, 'wizard.validation.sshText.verified'),
    );
    await capture(page, area, '2-validation');
    await page.getByTestId('wizard-next').click();
  });

  await test.step('destination: a manual endpoint, the lab upstream', async () => {
    await expectStep(page, 'destination');
    await page.locator('#wizard-destination-manual').check();
    await page.locator('#wizard-manual-endpoint').fill(app.upstream);
    await expect(page.getByTestId('wizard-manual-endpoint-message')).toHaveText(
      text(lang, 'validation.target.valid'),
    );
    await capture(page, area, '3-destination');
    await page.getByTestId('wizard-next').click();
  });

  let id = '';
  await test.step('deploy: lines arrive while the deployment still runs', async () => {
    await expectStep(page, 'deploy');
    // Saved: a reload would resume this configuration.
    await expect(page).toHaveURL(/continueId=/);
    id = new URL(page.url()).searchParams.get('continueId') as string;
    await expect(page.getByTestId('wizard-deploy-status')).toHaveAttribute('data-status', 'idle');
    await capture(page, area, '4-deploy-ready');
    await page.getByTestId('wizard-deploy-start').click();
    await expect(page.getByTestId('wizard-deploy-start')).toBeDisabled();
    // One check of both at the same instant: a server line shown while the status is deploying.
    await page.waitForFunction(
      (starting) => {
        const status = document.querySelector('[data-testid="wizard-deploy-status"]');
        const lines = Array.from(document.querySelectorAll('[data-testid="wizard-log-line"]'));
        const fromServer = lines.filter((li) => li.lastElementChild?.textContent !== starting);
        return status?.getAttribute('data-status') === 'deploying' && fromServer.length >= 2;
      },
      text(lang, 'wizard.deploy.log.starting'),
    );
    // The panel keeps streaming while axe runs and the screen is photographed.
    await capture(page, area, '4-deploy-running');
  });

  await test.step('completion: auto-advance to the complete step', async () => {
    await expectStep(page, 'complete', 60_000);
    await expect(page.getByTestId('wizard-complete-url')).toHaveText(`https://${domain}`);
    await expect(page.getByTestId('wizard-sidebar')).toBeVisible();
    // The sidebar rereads the configuration when the run ends: the new certificate shows.
    await expect(page.getByTestId('wizard-sidebar-ssl')).toHaveAttribute('data-tone', 'ok');
    // Lab servers have no systemd and cron stopped: the deployment started cron, whose
    // certbot entry renews the certificate, and only then the step says it renews itself.
    const renewal = page.getByTestId('wizard-complete-renewal');
    await expect(renewal).toHaveAttribute('data-working', 'true');
    await expect(renewal).toContainText(
      text(lang, 'wizard.complete.renewal.working', { how: 'cron (/etc/cron.d/certbot)' }),
    );
    await capture(page, area, '5-complete');
  });

  await test.step('the https:// URL serves the upstream with a Pebble certificate', async () => {
    const answer = await fetchSite(app, server.address, domain);
    expect(answer.status).toBe(200);
    expect(answer.issuer).toMatch(/Pebble/i);
    expect(answer.json).toMatchObject({
      upstream: app.lab.status.upstream.name,
      host: domain,
      xForwardedProto: 'https',
    });
  });

  await test.step('resuming a completed configuration lands on the complete step', async () => {
    await page.goto(`/proxy-wizard?continueId=${id}`);
    await expectStep(page, 'complete');
  });

  await test.step('the SSH password is in nothing the browser received or kept', async () => {
    const recorded = await received.recorded();
    expect(recorded.responses).toBeGreaterThan(10);
    expect(recorded.frames).toBeGreaterThan(5);
    // The scan finds what is there: the domain is in many answers.
    expect(await received.hits('domain', domain)).not.toEqual([]);
    expect(await received.hits('ssh password', app.rootPassword(serverName))).toEqual([]);
  });
}

test.describe('a new user completes the wizard', () => {
  test('in Spanish (the default language)', async ({ page, labApp }) => {
    await signIn(page, uniqueUser('eva'), 'register');
    await completeWizard(page, labApp, 'es', 's1');
  });

  test.describe('in English', () => {
    test.use({ locale: 'en-US' });
    test('from the browser language', async ({ page, labApp }) => {
      await signIn(page, uniqueUser('eli'), 'register');
      await completeWizard(page, labApp, 'en', 's2');
    });
  });
});

test.describe('checks and resume', () => {
  test.describe.configure({ mode: 'serial' });
  const user = uniqueUser('rui');
  let registered = false;

  test.beforeEach(async ({ page }) => {
    await signIn(page, user, registered ? 'login' : 'register');
    registered = true;
  });

  async function toValidation(
    page: Page,
    info: { serverIp: string; domain: string; password: string },
  ) {
    await page.goto('/proxy-wizard');
    await fillServerInfo(page, 'es', info);
    await page.getByTestId('wizard-next').click();
    await expectStep(page, 'dns-validation');
  }

  test('a domain pointing at another server fails DNS with the error; Retry passes once fixed', async ({
    page,
    labApp,
  }) => {
    const s1 = labApp.server('s1');
    const s2 = labApp.server('s2');
    const domain = s2.domains[2] as string;
    await labApp.lab.point(domain, 's1');
    try {
      await toValidation(page, {
        serverIp: s2.address,
        domain,
        password: labApp.rootPassword('s2'),
      });
      for (const lang of ['es', 'en'] as const) {
        // The same failure in English, without checking again: the error on screen is kept as
        // a text and follows the language switch like every other word.
        if (lang === 'en') await chooseLanguage(page, 'es', 'en');
        await expect(page.getByTestId('wizard-dns')).toHaveAttribute('data-status', 'failed');
        await expect(page.getByTestId('wizard-dns-badge')).toHaveText(
          text(lang, 'wizard.validation.dnsStatus.failed'),
        );
        // The server's sentence is the whole alert: cause, fix and the propagation delay, once.
        const cause = text(lang, 'checks.dns.pointsElsewhere', {
          domain,
          addresses: s1.address,
          expectedIp: s2.address,
        });
        await expect(page.getByTestId('wizard-dns-error')).toHaveText(cause);
        await expectSaidOnce(page.getByTestId('wizard-dns'), '48');
        await expect(page.getByTestId('wizard-dns-actual')).toHaveText(s1.address);
        // SSH waits for DNS.
        await expect(page.getByTestId('wizard-ssh')).toHaveAttribute('data-status', 'pending');
        await expect(page.getByTestId('wizard-next')).toBeDisabled();
        await expect(page.getByTestId('wizard-retry')).toBeEnabled();
        await capture(page, 'wizard-checks', `dns-failed-${lang}`);
      }
    } finally {
      await labApp.lab.point(domain, 's2');
    }
    await page.getByTestId('wizard-retry').click();
    await expect(page.getByTestId('wizard-dns')).toHaveAttribute('data-status', 'verified');
    await expect(page.getByTestId('wizard-ssh')).toHaveAttribute('data-status', 'verified');
    await expect(page.getByTestId('wizard-next')).toBeEnabled();
  });

  test('a wrong SSH password says why once', async ({ page, labApp }) => {
    const s2 = labApp.server('s2');
    await toValidation(page, {
      serverIp: s2.address,
      domain: s2.domains[2] as string,
      password: 'not-the-password',
    });
    for (const lang of ['es', 'en'] as const) {
      // Switched without a retry: the SSH error re-renders in English too.
      if (lang === 'en') await chooseLanguage(page, 'es', 'en');
      await expect(page.getByTestId('wizard-dns')).toHaveAttribute('data-status', 'verified');
      await expect(page.getByTestId('wizard-ssh')).toHaveAttribute('data-status', 'failed');
      // "SSH connection failed: authentication failed (…)" alone: no title or advice above or
      // below it saying the connection failed again.
      const cause = text(lang, 'checks.ssh.failed', {
        cause: text(lang, 'checks.ssh.cause.authFailed'),
      });
      await expect(page.getByTestId('wizard-ssh-error')).toHaveText(cause);
      await expect(page.getByTestId('wizard-ssh')).toHaveText(
        `${text(lang, 'wizard.validation.sshTitle')}${text(lang, 'wizard.validation.sshStatus.failed')}${cause}`,
      );
      await expect(page.getByTestId('wizard-ssh-fingerprint')).toHaveCount(0);
      await expect(page.getByTestId('wizard-next')).toBeDisabled();
      await capture(page, 'wizard-checks', `ssh-failed-${lang}`);
    }
  });

  test('a domain of the user’s own: toast offering it, the wizard stays, then home after 2 s', async ({
    page,
    labApp,
  }) => {
    const s3 = labApp.server('s3');
    const domain = s3.domains[1] as string;
    await saveConfiguration(page.request, labApp, 's3', domain, undefined);
    await page.goto('/proxy-wizard');
    await fillServerInfo(page, 'es', {
      serverIp: s3.address,
      domain,
      password: labApp.rootPassword('s3'),
    });
    await page.getByTestId('wizard-next').click();
    await expectToast(
      page,
      text('es', 'wizard.duplicate.found'),
      text('es', 'wizard.duplicate.redirecting'),
    );
    await expect(page.getByTestId('wizard-duplicate-open')).toHaveText(
      text('es', 'wizard.duplicate.openExisting'),
    );
    await expectStep(page, 'server-info');
    await expect(page.locator('#wizard-domain')).toHaveValue(domain);
    await screenshotWhileToast(page);
    await expect(page).toHaveURL(/\/$/, { timeout: 5_000 });
    await expect(page.getByTestId('welcome-heading')).toBeVisible();
  });

  test('a save the server refuses says its reason, in each language', async ({ page, labApp }) => {
    const s1 = labApp.server('s1');
    const domain = s1.domains[1] as string;
    await toValidation(page, {
      serverIp: s1.address,
      domain,
      password: labApp.rootPassword('s1'),
    });
    await expect(page.getByTestId('wizard-ssh')).toHaveAttribute('data-status', 'verified');
    await page.getByTestId('wizard-next').click();
    await expectStep(page, 'destination');
    // Meanwhile the domain is saved elsewhere (another tab): the wizard's save gets a 409.
    await saveConfiguration(page.request, labApp, 's1', domain, undefined);
    await page.locator('#wizard-destination-manual').check();
    await page.locator('#wizard-manual-endpoint').fill(labApp.upstream);
    for (const lang of ['es', 'en'] as const) {
      if (lang === 'en') await chooseLanguage(page, 'es', 'en');
      await page.getByTestId('wizard-next').click();
      // The server's reason, not "Configuration error / An error occurred".
      await expectToast(
        page,
        text(lang, 'wizard.destination.saveFailed'),
        text(lang, 'errors.domainTaken'),
      );
      await expect(toast(page)).not.toContainText(text(lang, 'errors.general'));
      await expectStep(page, 'destination');
      await capture(page, 'wizard-checks', `save-refused-${lang}`);
    }
  });

  test('resuming with continueId lands on the step the rule names', async ({ page, labApp }) => {
    const s3 = labApp.server('s3');
    // No target yet → destination.
    const noTarget = await saveConfiguration(
      page.request,
      labApp,
      's3',
      s3.domains[2] as string,
      undefined,
    );
    await page.goto(`/proxy-wizard?continueId=${noTarget}`);
    await expectStep(page, 'destination');
    // The title names the proxy being resumed, not "New reverse proxy".
    await expect(page.getByTestId('wizard-title')).toHaveText(
      text('es', 'wizard.titleExisting', { domain: s3.domains[2] as string }),
    );
    await capture(page, 'wizard-resume', 'no-target-destination');

    // A script the server refuses (a NUL byte: not text): the toast says the server's reason,
    // and the sidebar offers to go to the deployment, not to deploy "again".
    await page.locator('#wizard-destination-manual').check();
    await page.locator('#wizard-manual-endpoint').fill(labApp.upstream);
    await page.getByTestId('wizard-script-input').setInputFiles({
      name: 'setup.sh',
      mimeType: 'application/x-sh',
      buffer: Buffer.from('echo hi\n\0\n'),
    });
    await page.getByTestId('wizard-next').click();
    await expectToast(page, text('es', 'errors.uploadFailed'), text('es', 'checks.script.binary'));
    await expectStep(page, 'destination');
    await expect(page.getByTestId('wizard-action-redeploy')).toHaveText(
      text('es', 'wizard.sidebar.deploy'),
    );
    await capture(page, 'wizard-resume', 'script-refused');

    // A target, pending → deploy.
    const pending = await saveConfiguration(
      page.request,
      labApp,
      's3',
      'app.s3.portico.test',
      labApp.upstream,
    );
    await page.goto(`/proxy-wizard?continueId=${pending}`);
    await expectStep(page, 'deploy');
    await expect(page.getByTestId('wizard-deploy-status')).toHaveAttribute('data-status', 'idle');
    // The step bar checks the steps behind, and the sidebar agrees: the checks were passed.
    await expectChecks(page, { 'dns-validation': 'completed', dns: 'ok', ssh: 'ok' });
    await capture(page, 'wizard-resume', 'pending-deploy');

    // A run that failed (the domain points at another server: preflight stops it) → deploy.
    const failed = await saveConfiguration(
      page.request,
      labApp,
      's3',
      labApp.server('s2').domains[1] as string,
      labApp.upstream,
    );
    const started = await api(page.request, 'POST', `/api/deploy/${failed}`);
    expect(started.status).toBe(202);
    expect((await waitForRunEnd(page.request, failed)).status).toBe('failed');
    await page.goto(`/proxy-wizard?continueId=${failed}`);
    await expectStep(page, 'deploy');
    await expect(page.getByTestId('wizard-deploy-start')).toBeEnabled();
    // Not "Ready to deploy" with an empty log: the failed run, its lines and its failure line.
    await expect(page.getByTestId('wizard-deploy-status')).toHaveAttribute('data-status', 'failed');
    const stored = (await deploymentLogs(page.request, failed, 'es')).map((e) => e.message);
    expect(stored.length).toBeGreaterThan(2);
    await expect.poll(() => panelMessages(page)).toEqual(stored);
    const reason = stored.at(-1) as string;
    expect(reason).toContain(labApp.server('s2').address);
    await expect(page.getByTestId('wizard-log-line').last()).toHaveAttribute('data-level', 'error');
    await expect(page.getByTestId('wizard-deploy-error')).toContainText(reason);
    // The run failed on the DNS record: neither the step bar nor the sidebar says it was verified.
    await expectChecks(page, { 'dns-validation': 'failed', dns: 'failed', ssh: 'ok' });
    await expect(page.getByTestId('wizard-sidebar-dns')).toContainText(
      text('es', 'wizard.validation.dnsStatus.failed'),
    );
    await capture(page, 'wizard-resume', 'failed-deploy');
    // The same run on an English screen: Portico's lines and the reason in English, at once.
    await chooseLanguage(page, 'es', 'en');
    const english = (await deploymentLogs(page.request, failed, 'en')).map((e) => e.message);
    expect(english).not.toEqual(stored);
    await expect.poll(() => panelMessages(page)).toEqual(english);
    await expect(page.getByTestId('wizard-deploy-error')).toContainText(english.at(-1) as string);
    await expect(page.getByTestId('wizard-log-line').last()).toContainText('ERROR');
    await capture(page, 'wizard-resume', 'failed-deploy-en');
    await chooseLanguage(page, 'en', 'es');

    // Unknown id → not found, with a way to start again.
    await page.goto('/proxy-wizard?continueId=00000000-0000-4000-8000-000000000000');
    await expect(page.getByTestId('wizard-resume-error')).toContainText(
      text('es', 'wizard.resume.notFound'),
    );
  });

  test('a reload during the deployment reconnects and shows every line', async ({
    page,
    labApp,
  }) => {
    const s1 = labApp.server('s1');
    const id = await saveConfiguration(
      page.request,
      labApp,
      's1',
      s1.domains[2] as string,
      labApp.upstream,
    );
    // The run waits at its script step until the marker is there: the reload lands while it
    // is still going, however quick the steps before it are.
    const marker = '/tmp/portico-e2e-reload-release';
    await labApp.lab.exec('s1', ['rm', '-f', marker]);
    await uploadScript(page.request, id, 'hold.sh', holdScript(marker, 120));
    await page.goto(`/proxy-wizard?continueId=${id}`);
    await expectStep(page, 'deploy');
    let before: string[] = [];
    try {
      await page.getByTestId('wizard-deploy-start').click();
      await expect
        .poll(async () => (await deploymentLogs(page.request, id)).length)
        .toBeGreaterThanOrEqual(2);
      await page.reload();
      await expectStep(page, 'deploy');
      await expect(page.getByTestId('wizard-deploy-status')).toHaveAttribute(
        'data-status',
        'deploying',
      );
      // Every line the server stored before the reload is back in the panel (read, as the page
      // shows them, in Spanish).
      before = (await deploymentLogs(page.request, id, 'es')).map((e) => e.message);
      await expect.poll(() => panelMessages(page)).toEqual(expect.arrayContaining(before));
    } finally {
      await labApp.lab.exec('s1', ['touch', marker]);
    }
    // And at the end the panel holds the whole run.
    await page.waitForFunction(
      () =>
        document
          .querySelector('[data-testid="wizard-deploy-status"]')
          ?.getAttribute('data-status') === 'completed',
      undefined,
      { timeout: 60_000 },
    );
    const shown = await panelMessages(page);
    const stored = (await deploymentLogs(page.request, id, 'es')).map((e) => e.message);
    expect(stored.length).toBeGreaterThan(before.length);
    expect(shown).toEqual(expect.arrayContaining(stored));
    await expectStep(page, 'complete');
    const run = await waitForRunEnd(page.request, id);
    expect(run.status).toBe('completed');
  });
});

/** The validation step in the step bar and the DNS and SSH rows of the sidebar. */
async function expectChecks(
  page: Page,
  want: { 'dns-validation': string; dns: string; ssh: string },
) {
  await expect(page.getByTestId('wizard-progress-dns-validation')).toHaveAttribute(
    'data-status',
    want['dns-validation'],
  );
  await expect(page.getByTestId('wizard-sidebar-dns')).toHaveAttribute('data-tone', want.dns);
  await expect(page.getByTestId('wizard-sidebar-ssh')).toHaveAttribute('data-tone', want.ssh);
}

async function screenshotWhileToast(page: Page) {
  await capturePng(page, 'artifacts/screenshots/wizard-checks/duplicate-toast-1280.png', false);
}
