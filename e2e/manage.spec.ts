import type { Page } from '@playwright/test';
import { signIn } from './fixtures/auth';
import { text } from './fixtures/catalog';
import { api, configuration, saveConfiguration, waitForRunEnd } from './fixtures/lab-api';
import { expect, fetchSite, type TLabApp, test } from './fixtures/lab-app';
import { askByName, card, expectNginxSound, legacySite } from './fixtures/manage';
import { expectActionsInView, expectNoSidewaysScroll, WIDTHS } from './fixtures/screenshots';
import { type TSecretWatch, watchBrowserTraffic } from './fixtures/secret-watch';
import { chooseLanguage, dismissToast, expectToast } from './fixtures/ui';
import { uniqueUser } from './fixtures/users';
import { capture, expectStep } from './fixtures/wizard';

// Managing deployed proxies on real lab servers. One user, two proxies deployed once (s3 beside an unrelated
// site, s4 whose sshd is stopped for the unreachable delete), reused by the tests in order.
const AREA = 'manage';

test.describe('a deployed proxy, managed step by step', () => {
  test.describe.configure({ mode: 'serial' });
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  const user = uniqueUser('meg');
  let registered = false;
  const ids = { main: '', other: '' };

  let received: TSecretWatch;

  test.beforeEach(async ({ page }) => {
    received = watchBrowserTraffic(page);
    await signIn(page, user, registered ? 'login' : 'register');
    registered = true;
    // The browser never leaves for a lab domain (no DNS outside the lab): Abrir's tab gets a stub.
    await page
      .context()
      .route('https://*.portico.test/**', (route) =>
        route.fulfill({ status: 200, contentType: 'text/plain', body: 'stub' }),
      );
  });

  // Open, details, logs, edit, redeploy, forget the host key, reset, delete: the SSH passwords
  // of both servers reach the browser in no answer, socket frame, DOM, storage or cookie.
  test.afterEach(async ({ labApp }) => {
    for (const name of ['s3', 's4']) {
      expect(await received.hits(`${name} ssh password`, labApp.rootPassword(name))).toEqual([]);
    }
  });

  function mainDomain(app: TLabApp) {
    return app.server('s3').domains[0] as string;
  }

  async function deploy(page: Page, id: string) {
    const started = await api(page.request, 'POST', `/api/deploy/${id}`);
    expect(started.status, JSON.stringify(started.json)).toBe(202);
  }

  /** Through the page, so the run speaks the page's language (Spanish here). */
  async function redeployFromDetails(page: Page) {
    await page.getByTestId('action-redeploy').click();
    await page.getByTestId('redeploy-confirm').click();
    await expectToast(page, text('es', 'proxies.details.redeploySuccess'));
  }

  test('home starts empty; two proxies deployed through the API', async ({ page, labApp }) => {
    await page.goto('/');
    await expect(page.getByTestId('proxy-list-empty')).toBeVisible();
    await expect(page.getByTestId('proxy-list-empty')).toContainText(
      text('es', 'proxies.list.emptyTitle'),
    );
    await capture(page, AREA, 'home-empty');

    ids.main = await saveConfiguration(
      page.request,
      labApp,
      's3',
      mainDomain(labApp),
      labApp.upstream,
    );
    ids.other = await saveConfiguration(
      page.request,
      labApp,
      's4',
      labApp.server('s4').domains[0] as string,
      labApp.upstream,
    );
    await deploy(page, ids.main);
    await deploy(page, ids.other);
    expect((await waitForRunEnd(page.request, ids.main)).status).toBe('completed');
    expect((await waitForRunEnd(page.request, ids.other)).status).toBe('completed');
  });

  test('the card shows Active and served over HTTPS; Abrir opens the domain; copy fills the clipboard', async ({
    page,
    labApp,
  }) => {
    const domain = mainDomain(labApp);
    await page.goto('/');
    const main = card(page, ids.main);
    await expect(main.getByTestId('summary-state')).toHaveText(
      text('es', 'certificate.summary.state.live'),
    );
    await expect(main.getByTestId('summary-serving')).toHaveText(
      text('es', 'certificate.summary.serving.https'),
    );
    await expect(main.getByTestId('proxy-target')).toHaveText(labApp.upstream);
    await expect(main.getByTestId('proxy-continue')).toHaveCount(0);
    await capture(page, AREA, 'home-list');

    const popup = page.waitForEvent('popup');
    await main.getByTestId('proxy-open').click();
    const opened = await popup;
    await expect.poll(() => opened.url()).toBe(`https://${domain}/`);
    await opened.close();

    await main.getByTestId('proxy-copy').click();
    await expectToast(page, text('es', 'proxies.copy.success'), `https://${domain}`);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`https://${domain}`);

    await dismissToast(page, 'es');
    await page.getByTestId('view-table').click();
    await expect(page.getByTestId('proxy-row')).toHaveCount(2);
    await expect(
      page
        .locator(`[data-testid="proxy-row"][data-proxy-id="${ids.main}"]`)
        .getByTestId('proxy-open'),
    ).toBeVisible();
    await page.getByTestId('view-cards').click();
    await expect(page.getByTestId('proxy-card')).toHaveCount(2);
  });

  test('details show the summary first, the logs and the certificate', async ({ page, labApp }) => {
    await page.goto('/');
    await card(page, ids.main).getByTestId('proxy-card-link').click();
    await expect(page).toHaveURL(new RegExp(`/proxy-details/${ids.main}$`));
    await expect(page.getByTestId('details-domain')).toHaveText(mainDomain(labApp));
    await expect(page.getByTestId('log-line').first()).toBeVisible();
    await expect(page.getByTestId('log-line').last()).toHaveAttribute('data-level', 'success');
    const top = page.getByTestId('proxy-summary');
    await expect(top.getByTestId('summary-serving')).toHaveText(
      text('es', 'certificate.summary.serving.https'),
    );
    await expect(page.getByTestId('basic-info')).not.toContainText(labApp.rootPassword('s3'));
    // The watch's check after the deployment, and what the deployment did on the lab server
    // (no systemd, cron stopped): it started cron, and the section says the certificate renews.
    await expect
      .poll(
        async () => {
          const status = await api(
            page.request,
            'GET',
            `/api/proxy-configurations/${ids.main}/certificate`,
          );
          return status.json?.check?.ok ?? null;
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    await page.reload();
    const section = page.getByTestId('certificate-section');
    // The expiry is the summary's, once, green for a certificate far from its end.
    await expect(top.getByTestId('certificate-badge')).toHaveAttribute('data-state', 'fine');
    await expect(page.getByTestId('certificate-badge')).toHaveCount(1);
    await expect(section.getByTestId('certificate-names')).toHaveText(mainDomain(labApp));
    await expect(section.getByTestId('certificate-check-result')).toHaveAttribute(
      'data-ok',
      'true',
    );
    await expect(section.getByTestId('certificate-renewal')).toContainText(
      text('es', 'certificate.section.renewalWorking'),
    );
    await expect(section.locator('[data-method="cron"]')).toHaveAttribute('data-working', 'true');
    await capture(page, AREA, 'details');
    // The same section in English.
    await chooseLanguage(page, 'es', 'en');
    await expect(section.getByTestId('certificate-renewal')).toContainText(
      text('en', 'certificate.section.renewalWorking'),
    );
    await expect(top.getByTestId('certificate-badge')).toContainText(/^Expires in \d+ days/);
    await capture(page, AREA, 'details-en');
    // Home: the card's expiry badge, coloured by the state, in either language.
    await page.goto('/');
    const badge = card(page, ids.main).getByTestId('certificate-badge');
    await expect(badge).toHaveAttribute('data-state', 'fine');
    const days = Number(await badge.getAttribute('data-days'));
    await expect(badge).toContainText(
      text('en', 'certificate.badge.expiresIn_other', { count: days }),
    );
    await capture(page, AREA, 'home-badges-en');
    await chooseLanguage(page, 'en', 'es');
    await expect(badge).toContainText(
      text('es', 'certificate.badge.expiresIn_other', { count: days }),
    );
    await capture(page, AREA, 'home-badges');
  });

  // Issue 15's admin list, on a real reason: nginx on s4 stops serving the site, the admin's
  // "Check now" finds the connection refused, and the certificate needs attention until nginx runs
  // again and the next check passes.
  test('an admin sees a certificate that needs attention, in es and en, and its certificate section', async ({
    page,
    browser,
    labApp,
  }) => {
    const domain = labApp.server('s4').domains[0] as string;
    const context = await browser.newContext({ baseURL: labApp.url, locale: 'fr-FR' });
    const admin = await context.newPage();
    await signIn(admin, labApp.admin, 'login');
    const list = admin.getByTestId('admin-certificates-page');
    const certificate = `/api/proxy-configurations/${ids.other}/certificate`;
    /** The admin's Check now on the details page, then the server's word on its outcome. */
    async function checkNow(ok: boolean) {
      await admin.goto(`/proxy-details/${ids.other}`);
      const section = admin.getByTestId('certificate-section');
      await section.getByTestId('action-check-now').click();
      await expect
        .poll(
          async () => {
            const { json } = await api(admin.request, 'GET', certificate);
            return json?.checkPending ? 'pending' : (json?.check?.ok ?? null);
          },
          { timeout: 30_000 },
        )
        .toBe(ok);
      await admin.reload();
      await expect(section.getByTestId('certificate-check-result')).toHaveAttribute(
        'data-ok',
        String(ok),
      );
      return section;
    }

    try {
      const stopped = await labApp.lab.exec('s4', ['nginx', '-s', 'stop']);
      expect(stopped.code, stopped.stderr).toBe(0);
      // The admin's view of the owner's certificate section: the failed check, said as such.
      const section = await checkNow(false);
      // Red, and saying why: the check failed (never "expires in n days" in red).
      const failedBadge = admin.getByTestId('proxy-summary').getByTestId('certificate-badge');
      await expect(failedBadge).toHaveAttribute('data-state', 'danger');
      await expect(failedBadge).toContainText(text('es', 'certificate.badge.checkFailed'));
      await expect(section.getByTestId('certificate-check-result')).toContainText(
        text('es', 'certificate.section.checkFailed'),
      );
      await capture(admin, AREA, 'admin-certificate-section');
      // The owner's home says so too.
      await page.goto('/');
      await expect(card(page, ids.other).getByTestId('certificate-badge')).toHaveAttribute(
        'data-state',
        'danger',
      );

      await admin.goto('/admin/certificates');
      const row = list.locator(`[data-testid="attention-row"][data-proxy-id="${ids.other}"]`);
      await expect(row).toContainText(domain);
      await expect(row).toContainText(user.username);
      await expect(row.getByTestId('certificate-badge')).toHaveAttribute('data-state', 'danger');
      await expect(row.locator('[data-reason="checkFailed"]')).toHaveText(
        text('es', 'certificate.admin.reason.checkFailed'),
      );
      await capture(admin, AREA, 'admin-certificates');
      // A phone gets cards, the Open button on screen.
      await admin.setViewportSize(WIDTHS.phone);
      const phoneCard = list.locator(
        `[data-testid="attention-card"][data-proxy-id="${ids.other}"]`,
      );
      await expect(phoneCard).toBeVisible();
      expect(await expectActionsInView(admin, phoneCard)).toBe(1);
      await expectNoSidewaysScroll(admin);
      await admin.setViewportSize(WIDTHS.desktop);

      // Switched to English on the list, then on the section it opens: real text, no keys.
      await chooseLanguage(admin, 'es', 'en');
      await expect(list.getByRole('heading', { level: 1 })).toHaveText(
        text('en', 'certificate.admin.title'),
      );
      await expect(row.locator('[data-reason="checkFailed"]')).toHaveText(
        text('en', 'certificate.admin.reason.checkFailed'),
      );
      await capture(admin, AREA, 'admin-certificates-en');
      await row
        .getByRole('link', { name: text('en', 'certificate.admin.openOf', { domain }) })
        .click();
      await expect(admin).toHaveURL(new RegExp(`/proxy-details/${ids.other}$`));
      await expect(admin.getByTestId('certificate-check-result')).toContainText(
        text('en', 'certificate.section.checkFailed'),
      );
      await expect(admin.getByTestId('certificate-section')).not.toContainText('certificate.');
      await capture(admin, AREA, 'admin-certificate-section-en');
      await chooseLanguage(admin, 'en', 'es');
    } finally {
      const started = await labApp.lab.exec('s4', ['nginx']);
      expect(started.code, started.stderr).toBe(0);
    }
    // nginx serves again: the next check passes and the list has nothing left to show.
    await checkNow(true);
    await admin.goto('/admin/certificates');
    await expect(list).toContainText(text('es', 'certificate.admin.empty'));
    await context.close();
  });

  test('re-run streams new lines and ends completed', async ({ page }) => {
    await page.goto(`/proxy-details/${ids.main}`);
    const lines = page.getByTestId('log-line');
    await expect(lines.first()).toBeVisible();
    const before = await lines.count();
    await page.getByTestId('action-redeploy').click();
    await expect(page.getByTestId('redeploy-dialog')).toBeVisible();
    await capture(page, AREA, 'dialog-redeploy');
    // New lines on screen while the run is still going (no reload, no refresh button), with
    // the redeploy action unavailable meanwhile. A redeploy on the lab takes about two seconds,
    // less than the toast's checks: the page is watched from before the click, in every frame,
    // so that moment cannot be missed by starting to look too late.
    const seenWhileRunning = page.waitForFunction((count) => {
      const status = document.querySelector('[data-testid="summary-state"]');
      const redeploy = document.querySelector('[data-testid="action-redeploy"]');
      return (
        status?.getAttribute('data-state') === 'deploying' &&
        redeploy?.getAttribute('aria-disabled') === 'true' &&
        document.querySelectorAll('[data-testid="log-line"]').length > count + 1
      );
    }, before);
    await page.getByTestId('redeploy-confirm').click();
    await expectToast(page, text('es', 'proxies.details.redeploySuccess'));
    await seenWhileRunning;
    // The server's word first, then the page must agree without a reload.
    expect((await waitForRunEnd(page.request, ids.main)).status).toBe('completed');
    await expect(page.getByTestId('summary-state').first()).toHaveAttribute('data-state', 'live');
    await expect(lines.last()).toHaveAttribute('data-level', 'success');
    await expect(page.getByTestId('action-redeploy')).not.toHaveAttribute('aria-disabled', 'true');
    expect((await configuration(page.request, ids.main)).status).toBe('completed');
  });

  test('edit the target, redeploy, and the new target answers over HTTPS', async ({
    page,
    labApp,
  }) => {
    const target = `${labApp.upstream}/v2`;
    await page.goto('/');
    const main = card(page, ids.main);
    await main.getByTestId('proxy-edit').click();
    const dialog = page.getByTestId('edit-proxy-dialog');
    await expect(dialog.locator('#edit-target')).toHaveValue(labApp.upstream);
    await dialog.locator('#edit-target').fill(target);
    await capture(page, AREA, 'dialog-edit');
    await page.getByTestId('edit-proxy-save').click();
    await expectToast(page, text('es', 'proxies.edit.success'), mainDomain(labApp));
    await expect(main.getByTestId('proxy-target')).toHaveText(target);
    await expect(main.getByTestId('proxy-changed')).toBeVisible();
    await capture(page, AREA, 'home-changed');
    await main.getByTestId('proxy-redeploy').click();
    await expectToast(page, text('es', 'proxies.details.redeploySuccess'));
    expect((await waitForRunEnd(page.request, ids.main)).status).toBe('completed');
    // The list is read again on mount, focus and visibility, not during a run.
    await page.reload();
    await expect(main.getByTestId('summary-state')).toHaveText(
      text('es', 'certificate.summary.state.live'),
    );
    await expect(main.getByTestId('proxy-changed')).toHaveCount(0);

    const answer = await fetchSite(labApp, labApp.server('s3').address, mainDomain(labApp));
    expect(answer.status).toBe(200);
    expect(answer.issuer).toMatch(/Pebble/i);
    expect(answer.json).toMatchObject({ upstream: labApp.lab.status.upstream.name, path: '/v2/' });
  });

  test('a reinstalled server: its new host key is refused until the owner forgets the old one', async ({
    page,
    labApp,
  }) => {
    const pinned = (await configuration(page.request, ids.main)).hostKeyFingerprint as string;
    expect(pinned).toBe(labApp.server('s3').hostKeyFingerprint);
    // What a reinstall does to sshd: a new host key; SIGHUP makes sshd load it.
    const rekeyed = await labApp.lab.exec('s3', [
      'sh',
      '-c',
      'rm -f /etc/ssh/ssh_host_ed25519_key* && ' +
        "ssh-keygen -q -t ed25519 -N '' -f /etc/ssh/ssh_host_ed25519_key && " +
        'pkill -HUP -x sshd && ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub',
    ]);
    expect(rekeyed.code, rekeyed.stderr).toBe(0);
    const fresh = rekeyed.stdout.split(' ')[1] as string;
    expect(fresh).toMatch(/^SHA256:/);
    expect(fresh).not.toBe(pinned);

    await page.goto(`/proxy-details/${ids.main}`);
    await redeployFromDetails(page);
    const refused = await waitForRunEnd(page.request, ids.main);
    expect(refused.status).toBe('failed');
    expect(refused.hostKeyFingerprint).toBe(pinned);
    const lastLine = page.getByTestId('log-line').last();
    await expect(lastLine).toHaveAttribute('data-level', 'error');
    await expect(lastLine).toContainText(pinned);
    await expect(lastLine).toContainText(fresh);
    await expect(lastLine).toContainText(text('es', 'proxies.hostKey.forget'));
    // Nothing on the server changed: the unrelated site still answers.
    expect(await legacySite(labApp)).toContain('legacy site on s3');

    await expect(page.getByTestId('detail-host-key')).toHaveText(pinned);
    await page.getByTestId('action-forget-host-key').click();
    await expect(page.getByTestId('forget-host-key-dialog')).toContainText(pinned);
    await capture(page, AREA, 'dialog-forget-host-key');
    await page.getByTestId('forget-host-key-confirm').click();
    await expectToast(page, text('es', 'proxies.hostKey.success'));
    await expect(page.getByTestId('basic-info')).toContainText(
      text('es', 'proxies.hostKey.notPinned'),
    );

    await redeployFromDetails(page);
    const repinned = await waitForRunEnd(page.request, ids.main);
    expect(repinned.status).toBe('completed');
    expect(repinned.hostKeyFingerprint).toBe(fresh);
    await expect(page.getByTestId('detail-host-key')).toHaveText(fresh);
  });

  test('an edit of the SSH user clears the saved password; "Enter SSH password" asks for it and the redeploy completes', async ({
    page,
    labApp,
  }) => {
    await page.goto('/');
    const main = card(page, ids.main);
    await main.getByTestId('proxy-edit').click();
    const dialog = page.getByTestId('edit-proxy-dialog');
    // A proxy typed in the wizard is on the saved server it made: editing its SSH user by hand
    // takes it off that server, onto the typed address.
    await dialog.getByTestId('edit-server-choice').selectOption('');
    await expect(dialog.getByTestId('edit-credential-note')).toHaveText(
      text('es', 'proxies.edit.credentialNote'),
    );
    await dialog.locator('#edit-user').fill('deploy');
    await page.getByTestId('edit-proxy-save').click();
    await expectToast(page, text('es', 'proxies.edit.success'), mainDomain(labApp));
    // The server forgot it: the record says so, and the card offers to enter it instead of Redeploy.
    expect((await configuration(page.request, ids.main)).hasSshPassword).toBe(false);
    await expect(main.getByTestId('proxy-enter-password')).toBeVisible();
    await expect(main.getByTestId('proxy-redeploy')).toHaveCount(0);

    await page.goto(`/proxy-details/${ids.main}`);
    await expect(page.getByTestId('password-needed')).toContainText(
      text('es', 'proxies.passwordNeeded.text'),
    );
    await capture(page, AREA, 'details-password-needed');
    await page.getByTestId('password-needed-enter').click();
    // A completed proxy without its password opens where the password is entered.
    await expectStep(page, 'server-info');
    await expect(page.locator('#wizard-ssh-user')).toHaveValue('deploy');
    await page.locator('#wizard-ssh-user').fill('root');
    await page.getByTestId('wizard-next').click();
    await expect(page.locator('#wizard-ssh-password-error')).toBeVisible();
    await expectStep(page, 'server-info');
    await capture(page, AREA, 'wizard-password-asked');
    await page.locator('#wizard-ssh-password').fill(labApp.rootPassword('s3'));
    await page.getByTestId('wizard-next').click();
    await expectStep(page, 'dns-validation');
    await expect(page.getByTestId('wizard-ssh')).toHaveAttribute('data-status', 'verified');
    await page.getByTestId('wizard-next').click();
    // The destination the proxy had is kept: the manual endpoint holds it and it is valid.
    await expectStep(page, 'destination');
    await expect(page.locator('#wizard-manual-endpoint')).toHaveValue(`${labApp.upstream}/v2`);
    await expect(page.getByTestId('wizard-manual-endpoint-message')).toHaveText(
      text('es', 'validation.target.valid'),
    );
    await page.getByTestId('wizard-next').click();
    await expectStep(page, 'deploy');
    await expect(page.getByTestId('wizard-deploy-status')).toHaveAttribute('data-status', 'idle');
    await page.getByTestId('wizard-deploy-start').click();
    await expectStep(page, 'complete', 60_000);
    const saved = await configuration(page.request, ids.main);
    expect(saved.hasSshPassword).toBe(true);
    expect(saved.sshUser).toBe('root');
    expect(saved.status).toBe('completed');
    const answer = await fetchSite(labApp, labApp.server('s3').address, mainDomain(labApp));
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ path: '/v2/' });
  });

  test('reset returns to pending, says the site keeps serving, and it does', async ({
    page,
    labApp,
  }) => {
    const stillServing = text('es', 'proxies.reset.stillServing');
    await page.goto(`/proxy-details/${ids.main}`);
    await page.getByTestId('action-reset').click();
    await expect(page.getByTestId('reset-dialog')).toBeVisible();
    await expect(page.getByTestId('reset-dialog')).toContainText(stillServing);
    await capture(page, AREA, 'dialog-reset');
    await page.getByTestId('reset-confirm').click();
    await expectToast(page, text('es', 'proxies.details.resetSuccess'), stillServing);
    const state = page.getByTestId('proxy-summary').getByTestId('summary-state');
    await expect(state).toHaveAttribute('data-state', 'pendingServing');
    await expect(state).toHaveText(text('es', 'certificate.summary.state.pendingServing'));
    await capture(page, AREA, 'details-reset');
    // True of the server: nginx still serves the site over HTTPS, to the same upstream.
    const answer = await fetchSite(labApp, labApp.server('s3').address, mainDomain(labApp));
    expect(answer.status).toBe(200);
    await page.goto('/');
    const main = card(page, ids.main);
    await expect(main.getByTestId('summary-state')).toHaveText(
      text('es', 'certificate.summary.state.pendingServing'),
    );
    await expect(main.getByTestId('summary-next')).toHaveText(
      text('es', 'certificate.summary.next.redeployOrDelete'),
    );
    const cont = main.getByTestId('proxy-continue');
    await expect(cont).toHaveAttribute('href', `/proxy-wizard?continueId=${ids.main}`);
    await expect(main.getByTestId('proxy-open')).toHaveCount(0);
    await capture(page, AREA, 'home-reset');
    await chooseLanguage(page, 'es', 'en');
    await expect(main.getByTestId('summary-state')).toHaveText(
      text('en', 'certificate.summary.state.pendingServing'),
    );
    await capture(page, AREA, 'home-reset-en');
    await chooseLanguage(page, 'en', 'es');
  });

  test('delete with removal: the site is gone from the server and nginx -t still passes', async ({
    page,
    labApp,
  }) => {
    const domain = mainDomain(labApp);
    await page.goto(`/proxy-details/${ids.main}`);
    await page.getByTestId('action-delete').click();
    await expect(page.getByTestId('delete-remove-from-server')).toBeChecked();
    await capture(page, AREA, 'dialog-delete');
    await page.getByTestId('delete-confirm').click();
    await expectToast(page, text('es', 'proxies.details.deleteSuccess'), domain);
    await expect(page).toHaveURL(/\/$/);
    await expect(card(page, ids.main)).toHaveCount(0);

    const enabled = await labApp.lab.exec('s3', ['ls', '/etc/nginx/sites-enabled']);
    expect(enabled.stdout).not.toContain(domain);
    // nginx no longer hands the domain to the upstream, on either port.
    for (const url of [`http://127.0.0.1/`, `https://127.0.0.1/`]) {
      const got = await askByName(labApp, domain, url, ['-H', `Host: ${domain}`]);
      expect(got).not.toContain(labApp.lab.status.upstream.name);
    }
    // nginx -t passes and the unrelated site beside ours still answers.
    await expectNginxSound(labApp);
  });

  test('delete when the server is unreachable offers "delete from Portico only"', async ({
    page,
    labApp,
  }) => {
    const stopped = await labApp.lab.exec('s4', ['pkill', '-x', 'sshd']);
    expect(stopped.code, stopped.stderr).toBe(0);
    await page.goto(`/proxy-details/${ids.other}`);
    await page.getByTestId('action-delete').click();
    await page.getByTestId('delete-confirm').click();
    const unreachable = page.getByTestId('delete-unreachable');
    // The server's sentence alone says why and what is left (no title repeating it).
    const [why] = text('es', 'errors.serverUnreachable').split('{{reason}}');
    await expect(unreachable).toContainText(why!.trim(), { timeout: 30_000 });
    await expect(unreachable).not.toContainText(text('es', 'proxies.delete.unreachableDefault'));
    await capture(page, AREA, 'dialog-delete-unreachable');
    await page.getByTestId('delete-portico-only').click();
    await expectToast(page, text('es', 'proxies.details.deleteSuccess'));
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('proxy-list-empty')).toBeVisible();
    expect((await api(page.request, 'GET', `/api/proxy-configurations/${ids.other}`)).status).toBe(
      404,
    );
  });
});
