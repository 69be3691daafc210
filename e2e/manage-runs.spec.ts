import { readFile } from 'node:fs/promises';
import { signIn } from './fixtures/auth';
import { text } from './fixtures/catalog';
import {
  api,
  configuration,
  deploymentLogs,
  holdScript,
  saveConfiguration,
  uploadScript,
  waitForRunEnd,
} from './fixtures/lab-api';
import { expect, fetchSite, test } from './fixtures/lab-app';
import { askByName, card, expectNginxSound } from './fixtures/manage';
import { expectActionsInView, expectNoSidewaysScroll, WIDTHS } from './fixtures/screenshots';
import { chooseLanguage, dismissToast, expectToast } from './fixtures/ui';
import { uniqueUser } from './fixtures/users';
import { capture, expectStep, panelMessages } from './fixtures/wizard';

// Managing proxies while and after their runs, on real lab servers, each test with a user of its
// own (manage.spec.ts holds the proxies managed step by step): the list at two widths, a run held
// open, a run failed after writing, a renewal held after two. A file of its own so that two lab
// workers share the lab specs' time (E2E_LAB_WORKERS).
const AREA = 'manage';

test('the list as a table at desktop width, as cards at phone width', async ({ page, labApp }) => {
  await signIn(page, uniqueUser('tom'), 'register');
  const id = await saveConfiguration(
    page.request,
    labApp,
    's3',
    'table.s3.portico.test',
    labApp.upstream,
  );
  await saveConfiguration(page.request, labApp, 's3', 'shop.s3.portico.test', undefined);
  await page.goto('/');
  await page.getByTestId('view-table').click();
  await expect(page.getByTestId('proxy-row')).toHaveCount(2);
  const row = page.locator(`[data-testid="proxy-row"][data-proxy-id="${id}"]`);
  await expect(row.getByTestId('summary-state')).toHaveText(
    text('es', 'certificate.summary.state.pending'),
  );
  await expect(row.getByTestId('proxy-continue')).toBeVisible();
  await capture(page, AREA, 'home-table');
  // The choice is remembered.
  await page.reload();
  await expect(page.getByTestId('proxy-table')).toBeVisible();

  // A phone has no room for the table: cards, with every action on screen.
  for (const lang of ['es', 'en'] as const) {
    if (lang === 'en') await chooseLanguage(page, 'es', 'en');
    await page.setViewportSize(WIDTHS.phone);
    await expect(page.getByTestId('proxy-table')).toHaveCount(0);
    await expect(page.getByTestId('view-table')).toHaveCount(0);
    const cards = page.getByTestId('proxy-card');
    await expect(cards).toHaveCount(2);
    for (const one of await cards.all()) {
      expect(await expectActionsInView(page, one)).toBeGreaterThanOrEqual(2);
    }
    await expect(
      page
        .locator(`[data-testid="proxy-card"][data-proxy-id="${id}"]`)
        .getByTestId('proxy-continue'),
    ).toBeVisible();
    await expectNoSidewaysScroll(page);
    await capture(page, AREA, `home-phone-${lang}`);
    await page.setViewportSize(WIDTHS.desktop);
    await expect(page.getByTestId('proxy-table')).toBeVisible();
  }
});

// A run held open by its own script (it waits for a marker file on the server),
// so what the screens say while a deployment runs is checked without racing its end.
test('while a deployment runs: in progress everywhere, refused actions say why', async ({
  page,
  labApp,
}) => {
  test.setTimeout(600_000);
  await signIn(page, uniqueUser('hal'), 'register');
  const domain = 'hold.s3.portico.test';
  const marker = '/tmp/portico-e2e-release';
  await labApp.lab.point(domain, 's3');
  await labApp.lab.exec('s3', ['rm', '-f', marker]);
  const id = await saveConfiguration(page.request, labApp, 's3', domain, labApp.upstream);
  await uploadScript(
    page.request,
    id,
    'hold.sh',
    // At most 500 s: the screenshots of four screens at two widths take minutes on a loaded
    // machine.
    holdScript(marker, 500),
  );
  await page.goto('/');
  try {
    const started = await api(page.request, 'POST', `/api/deploy/${id}`);
    expect(started.status, JSON.stringify(started.json)).toBe(202);
    for (const lang of ['es', 'en'] as const) {
      if (lang === 'en') await chooseLanguage(page, 'es', 'en');
      await page.goto('/');
      // Home: in progress is blue with a spinner, not red; edit says why it cannot act.
      const home = card(page, id);
      const badge = home.getByTestId('summary-state');
      await expect(badge).toHaveAttribute('data-tone', 'running');
      await expect(badge).toHaveText(text(lang, 'certificate.summary.state.deploying'));
      await expect(badge.locator('svg.animate-spin')).toHaveCount(1);
      await expect(home.getByTestId('proxy-edit')).toHaveAttribute('aria-disabled', 'true');
      await capture(page, AREA, `home-deploying-${lang}`);

      await home.getByTestId('proxy-card-link').click();
      await expect(page.getByTestId('proxy-details')).toHaveAttribute('data-proxy-id', id);
      await expect(page.getByTestId('summary-state').first()).toHaveAttribute(
        'data-tone',
        'running',
      );
      for (const action of ['action-reset', 'action-redeploy', 'action-delete']) {
        await expect(page.getByTestId(action)).toHaveAttribute('aria-disabled', 'true');
      }
      const reason = text(lang, 'proxies.unavailable.deploying');
      // The keyboard reaches an unavailable action, and its tooltip says why.
      // (The tooltip closing is still in the page a moment: only the open one counts.)
      const shownTooltip = page.locator('[role="tooltip"]:not([data-state="closed"])');
      await page.getByTestId('action-reset').focus();
      await expect(shownTooltip).toHaveText(reason);
      // A click (or a tap) says why instead of acting: no dialog, no 409. (force: Playwright
      // itself waits for an aria-disabled button to become enabled before it clicks.)
      await page.getByTestId('action-delete').click({ force: true });
      await expect(shownTooltip).toHaveText(reason);
      await expect(page.getByTestId('delete-dialog')).toHaveCount(0);
      await capture(page, AREA, `details-deploying-${lang}`);

      // A phone: the actions come before the log, on the first screen, all within its width.
      await page.setViewportSize(WIDTHS.phone);
      const panel = await page.getByTestId('management-panel').boundingBox();
      const logs = await page.getByTestId('deployment-logs').boundingBox();
      expect(panel!.y + panel!.height).toBeLessThanOrEqual(logs!.y);
      expect(panel!.y).toBeLessThan(WIDTHS.phone.height);
      await expectActionsInView(page, page.getByTestId('management-panel'));
      await expectNoSidewaysScroll(page);
      await page.setViewportSize(WIDTHS.desktop);
    }
    expect((await configuration(page.request, id)).status).toBe('deploying');
  } finally {
    await labApp.lab.exec('s3', ['touch', marker]);
  }
  expect((await waitForRunEnd(page.request, id)).status).toBe('completed');
  await expect(page.getByTestId('summary-state').first()).toHaveAttribute('data-tone', 'fine');
  await expect(page.getByTestId('action-reset')).not.toHaveAttribute('aria-disabled', 'true');
  // Leave s3 as the test found it: this site, the first on s3 in nginx's order, would otherwise
  // answer HTTPS for every name s3 no longer serves (the next test checks one is gone).
  const removed = await api(
    page.request,
    'DELETE',
    `/api/proxy-configurations/${id}?removeFromServer=true&removeCertificate=true`,
  );
  expect(removed.status, JSON.stringify(removed.json)).toBe(200);
});

// A run that fails at its custom script, after the certificate and the HTTPS site were
// written. Portico shows what the server has (a working HTTPS site) with the failure beside it,
// on the details page and when the wizard resumes, in the reader's language whoever started the
// run; Reset, then delete with removal, leaves no trace of the site on the server.
test('a run failed after writing: shown as the server has it, in each language; reset and delete leave no trace', async ({
  page,
  labApp,
}) => {
  test.setTimeout(300_000);
  const domain = 'script.s3.portico.test';
  await labApp.lab.point(domain, 's3');
  await signIn(page, uniqueUser('ana'), 'register');
  const id = await saveConfiguration(page.request, labApp, 's3', domain, labApp.upstream);
  await uploadScript(page.request, id, 'fails.sh', 'echo about to fail\nexit 3\n');
  // Started in Spanish, as a Spanish screen starts it.
  const started = await api(page.request, 'POST', `/api/deploy/${id}`, undefined, 'es');
  expect(started.status).toBe(202);
  expect((await waitForRunEnd(page.request, id, 180_000)).status).toBe('failed');

  const exec = (argv: string[]) => labApp.lab.exec('s3', argv);
  const exists = async (path: string) => (await exec(['test', '-e', path])).code === 0;
  const file = `/etc/nginx/sites-available/proxy-${domain}`;
  const link = `/etc/nginx/sites-enabled/proxy-${domain}`;
  const lineage = [
    `/etc/letsencrypt/live/${domain}`,
    `/etc/letsencrypt/archive/${domain}`,
    `/etc/letsencrypt/renewal/${domain}.conf`,
  ];
  // What the server has: the HTTPS site, enabled, with its certificate, serving the upstream.
  expect(await exists(file)).toBe(true);
  expect(await exists(link)).toBe(true);
  for (const path of lineage) expect(await exists(path), path).toBe(true);
  const served = await fetchSite(labApp, labApp.server('s3').address, domain);
  expect(served.status).toBe(200);
  expect(served.json).toMatchObject({ host: domain });

  /** The details page's log lines: level and message as shown. */
  const detailsLines = () =>
    page
      .getByTestId('log-line')
      .evaluateAll((lines) =>
        lines.map((li) => [li.children[0]?.textContent ?? '', li.children[1]?.textContent ?? '']),
      );

  await test.step('details (es): the record of what is on the server, the failure beside it', async () => {
    await page.goto(`/proxy-details/${id}`);
    // The summary first: failed, still serving HTTPS, the reason and what to do.
    const top = page.getByTestId('proxy-summary');
    await expect(top.getByTestId('summary-state')).toHaveAttribute('data-state', 'failedServing');
    await expect(top.getByTestId('summary-serving')).toHaveText(
      text('es', 'certificate.summary.serving.https'),
    );
    const site = page.getByTestId('server-site');
    await expect(site).toHaveAttribute('data-domain', domain);
    await expect(page.getByTestId('server-site-files')).toContainText(file);
    await expect(page.getByTestId('server-site-files')).toContainText(link);
    await expect(page.getByTestId('server-site-enabled')).toHaveAttribute('data-enabled', 'true');
    await expect(page.getByTestId('server-site-https')).toHaveText(
      text('es', 'proxies.server.httpsOn'),
    );
    await expect(page.getByTestId('server-site-certificate')).toContainText(domain);
    await expect(page.getByTestId('server-last-success')).toHaveText(text('es', 'proxies.never'));
    await expect(top.getByTestId('summary-failure')).toContainText(
      text('es', 'proxies.steps.custom-script'),
    );
    await expect(top.getByTestId('summary-reason')).toContainText(
      text('es', 'deployLog.script.exited', { code: '3' }),
    );
    // One rendering of levels and words: Spanish throughout, the script's output verbatim.
    const es = (await deploymentLogs(page.request, id, 'es')).map((l) => l.message);
    await expect.poll(async () => (await detailsLines()).map((l) => l[1])).toEqual(es);
    const lines = await detailsLines();
    expect(lines.map((l) => l[0])).toContain(text('es', 'logs.level.success').toUpperCase());
    expect(lines.map((l) => l[1])).toContain('script: about to fail');
    await capture(page, AREA, 'details-failed-run');
  });

  await test.step('details (en): the same run and failure in English, without a reload', async () => {
    await chooseLanguage(page, 'es', 'en');
    const en = (await deploymentLogs(page.request, id, 'en')).map((l) => l.message);
    await expect.poll(async () => (await detailsLines()).map((l) => l[1])).toEqual(en);
    expect((await detailsLines()).map((l) => l[0])).toContain('SUCCESS');
    await expect(page.getByTestId('summary-reason')).toContainText(
      text('en', 'deployLog.script.exited', { code: '3' }),
    );
    await expect(page.getByTestId('server-site-https')).toHaveText(
      text('en', 'proxies.server.httpsOn'),
    );
    await capture(page, AREA, 'details-failed-run-en');
  });

  await test.step('the wizard resumes on the failed run: its log and its failure line', async () => {
    await page.getByTestId('action-modify').click();
    await expectStep(page, 'deploy');
    await expect(page.getByTestId('wizard-deploy-status')).toHaveAttribute('data-status', 'failed');
    const en = (await deploymentLogs(page.request, id, 'en')).map((l) => l.message);
    await expect.poll(() => panelMessages(page)).toEqual(en);
    // The wizard tells the run as every screen does: the summary, the reason in it.
    const told = page.getByTestId('wizard-deploy-error').getByTestId('proxy-summary');
    await expect(told.getByTestId('summary-state')).toHaveAttribute('data-state', 'failedServing');
    await expect(told.getByTestId('summary-reason')).toContainText(
      text('en', 'deployLog.script.exited', { code: '3' }),
    );
    const success = page.locator('[data-testid="wizard-log-line"][data-level="success"]').first();
    await expect(success).toContainText('SUCCESS');
    await capture(page, AREA, 'wizard-failed-run-en');
    // The downloaded file is in the reader's language too.
    const download = page.waitForEvent('download');
    await page.getByTestId('wizard-deploy-download').click();
    const saved = await readFile(await (await download).path(), 'utf8');
    expect(saved).toMatch(/^\[SUCCESS\] \S+ - certbot obtained a certificate for /m);
    expect(saved).toMatch(/^\[INFO\] \S+ - script: about to fail$/m);

    await chooseLanguage(page, 'en', 'es');
    const es = (await deploymentLogs(page.request, id, 'es')).map((l) => l.message);
    await expect.poll(() => panelMessages(page)).toEqual(es);
    await expect(success).toContainText(text('es', 'logs.level.success').toUpperCase());
    await capture(page, AREA, 'wizard-failed-run');
  });

  await test.step('reset, then delete with removal: the dialog names what goes', async () => {
    await page.goto(`/proxy-details/${id}`);
    await page.getByTestId('action-reset').click();
    await page.getByTestId('reset-confirm').click();
    await expectToast(page, text('es', 'proxies.details.resetSuccess'));
    await expect(page.getByTestId('summary-state').first()).toHaveAttribute(
      'data-state',
      'pendingServing',
    );
    // Reset changes nothing on the server, and the record still says so.
    await expect(page.getByTestId('server-site-files')).toContainText(file);
    await dismissToast(page, 'es');
    await page.getByTestId('action-delete').click();
    const dialog = page.getByTestId('delete-dialog');
    await expect(page.getByTestId('delete-remove-from-server')).toBeChecked();
    await expect(dialog).toContainText(file);
    await expect(dialog).toContainText(link);
    const certificate = page.getByRole('checkbox', {
      name: text('es', 'proxies.delete.removeCertificate', { name: domain }),
    });
    await expect(certificate).toBeChecked();
    await capture(page, AREA, 'dialog-delete-record');
    await page.getByTestId('delete-confirm').click();
    await expectToast(page, text('es', 'proxies.details.deleteSuccess'), domain);
    await expect(page).toHaveURL(/\/$/);
  });

  // No trace of the site: files, link, certificate lineage; nginx -t passes; the unrelated site
  // still answers; the domain is no longer handed to the upstream.
  expect(await exists(file)).toBe(false);
  expect(await exists(link)).toBe(false);
  for (const path of lineage) expect(await exists(path), path).toBe(false);
  await expectNginxSound(labApp);
  const gone = await askByName(labApp, domain, `https://${domain}/`);
  expect(gone).not.toContain(labApp.lab.status.upstream.name);
});

// Issue 35: "Renew now" twice on a real server, then held by the proxy's daily limit; the
// details page says until when and why, in each language, at desktop and phone width.
test('Renew now twice, then held: the page says until when and why, in es and en', async ({
  page,
  labApp,
}) => {
  test.setTimeout(300_000);
  await signIn(page, uniqueUser('ren'), 'register');
  const domain = 'renew.s3.portico.test';
  await labApp.lab.point(domain, 's3');
  const id = await saveConfiguration(page.request, labApp, 's3', domain, labApp.upstream);
  expect((await api(page.request, 'POST', `/api/deploy/${id}`)).status).toBe(202);
  expect((await waitForRunEnd(page.request, id, 120_000)).status).toBe('completed');
  const certificate = `/api/proxy-configurations/${id}/certificate`;
  await page.goto(`/proxy-details/${id}`);
  const section = page.getByTestId('certificate-section');
  const renewNow = section.getByTestId('action-renew-now');
  for (let i = 0; i < 2; i += 1) {
    await expect(renewNow).toBeEnabled({ timeout: 30_000 });
    await renewNow.click();
    await page.getByTestId('renew-now-confirm').click();
    await expect
      .poll(async () => (await api(page.request, 'GET', certificate)).json?.lastAction, {
        timeout: 120_000,
        intervals: [1000],
      })
      .toMatchObject({ kind: 'renew', status: 'completed' });
    await dismissToast(page, 'es');
  }
  await page.reload();
  const held = (await api(page.request, 'GET', certificate)).json.held.renew;
  expect(held).toMatchObject({ limit: 'proxyDay', max: 2 });
  await expect(renewNow).toBeDisabled();
  await expect(section.getByTestId('action-test-renewal')).toBeEnabled();
  const heldText = section.getByTestId('certificate-action-held');
  await expect(heldText).toHaveAttribute('data-action', 'renew');
  await expect(heldText).toContainText('Renovar ahora vuelve a estar disponible a partir del 20');
  await expect(heldText).toContainText('ya se ejecutó 2 veces para este proxy');
  await expect(section.getByTestId('certificate-recently-issued')).toContainText(
    "3: Let's Encrypt permite 5",
  );
  // The API refuses a third as well, in the caller's words and with the same minute.
  const refused = await api(page.request, 'POST', `${certificate}/renew`, undefined, 'es');
  expect(refused.status).toBe(429);
  expect(refused.json.code).toBe('renewal_limited');
  expect(refused.json.message).toContain('Podrás renovar de nuevo a partir del');
  await section.scrollIntoViewIfNeeded();
  await capture(page, AREA, 'renew-held');
  await chooseLanguage(page, 'es', 'en');
  await expect(heldText).toContainText('it already ran 2 times for this proxy');
  await capture(page, AREA, 'renew-held-en');
  // capture() takes 1280 and 390 px; at 390 the sentence wraps and nothing scrolls sideways.
  await page.setViewportSize(WIDTHS.phone);
  await expect(heldText).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.setViewportSize(WIDTHS.desktop);
  await chooseLanguage(page, 'en', 'es');
});
