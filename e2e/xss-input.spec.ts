import { text } from './fixtures/catalog';
import { screenshotScreen } from './fixtures/screenshots';
import { expectToast, fieldError, submitLogin, submitRegister, toast } from './fixtures/ui';
import { expect, test } from './fixtures/xss-app';
import { expectInert, PAYLOADS, watchXss } from './fixtures/xss-payloads';
import { startHostileSshServer } from './fixtures/xss-ssh-server';
import { adminPage, asOwner, loopbackProxy, visit } from './fixtures/xss-steps';

// Stored XSS, the input side (see xss.spec.ts for the planted rows): hostile input sent
// through the forms and the API is refused and shown as text, accepted free text stays text, and
// what a hostile SSH server prints during a deployment reaches the live and stored logs as text.
const AREA = 'xss';

test.describe('stored XSS: hostile input through the product', () => {
  test('refusals show the input as text: register, login, wizard, manual endpoint, script name', async ({
    page,
    xssApp,
  }) => {
    const watch = watchXss(page);
    await page.goto('/');
    await submitRegister(page, 'es', {
      username: PAYLOADS.img,
      email: PAYLOADS.svg,
      password: 'Portico-1-Xss',
      confirmPassword: 'Portico-1-Xss',
    });
    await expect(fieldError(page, 'register-username')).toBeVisible();
    await expect(fieldError(page, 'register-email')).toBeVisible();
    await expectInert(page, watch, 'register refused');
    await submitLogin(page, 'es', PAYLOADS.script, 'Portico-1-Xss');
    await expect(toast(page)).toBeVisible();
    await expectInert(page, watch, 'login refused');
    await screenshotScreen(page, AREA, 'landing-refused');

    await asOwner(page, xssApp);
    await page.goto('/proxy-wizard');
    await page.locator('#wizard-server-ip').fill(PAYLOADS.script);
    await page.locator('#wizard-domain').fill(PAYLOADS.img);
    await page.locator('#wizard-ssh-user').fill(PAYLOADS.svg);
    for (const id of ['wizard-server-ip', 'wizard-domain', 'wizard-ssh-user']) {
      await expect(fieldError(page, id)).toBeVisible();
    }
    await expectInert(page, watch, 'wizard server info refused');
    await screenshotScreen(page, AREA, 'wizard-refused');

    // The destination step of the proxy without a target: a hostile manual endpoint and a
    // script whose file name is markup (the browser shows the picked name before any upload).
    await page.goto(`/proxy-wizard?continueId=${xssApp.proxies.template}`);
    await page.locator('#wizard-destination-manual').check();
    await page.locator('#wizard-manual-endpoint').fill(PAYLOADS.js);
    await expect(page.getByTestId('wizard-manual-endpoint-message')).toBeVisible();
    const scriptName = `${PAYLOADS.img}.sh`;
    await page.getByTestId('wizard-script-input').setInputFiles({
      name: scriptName,
      mimeType: 'text/x-sh',
      buffer: Buffer.from('#!/bin/sh\necho hi\n'),
    });
    await expect(page.getByTestId('wizard-script-file')).toContainText(scriptName);
    await expectInert(page, watch, 'wizard destination refused');
    await screenshotScreen(page, AREA, 'wizard-destination-hostile');
  });

  test('hostile paths and ids in the address bar render as text, API errors as JSON', async ({
    page,
    xssApp,
  }) => {
    const watch = await asOwner(page, xssApp);
    const screens: [string, string][] = [
      [`/${encodeURIComponent(PAYLOADS.img)}`, 'not-found'],
      [`/proxy-details/${encodeURIComponent(PAYLOADS.svg)}`, 'details-not-found'],
      [
        `/proxy-wizard?continueId=${encodeURIComponent(PAYLOADS.script)}`,
        'wizard-progress-server-info',
      ],
    ];
    for (const [path, ready] of screens) await visit(page, watch, path, ready);
    for (const path of [
      `/api/${encodeURIComponent(PAYLOADS.img)}`,
      `/api/proxy-configurations/${encodeURIComponent(PAYLOADS.svg)}`,
    ]) {
      const response = await page.goto(path);
      expect(response?.headers()['content-type'], path).toMatch(/^application\/json/);
      expect(response?.headers()['x-content-type-options'], path).toBe('nosniff');
      await expectInert(page, watch, path);
    }
  });

  test('a target with markup is refused as text; an admin destination takes free text', async ({
    page,
    browser,
    xssApp,
  }) => {
    const watch = await asOwner(page, xssApp);
    const { id, edit } = await loopbackProxy(page.request, 'edit');
    // No spaces: it looks like a URL, but the target allowlist keeps markup out of nginx files.
    const target = `http://127.0.0.1:9/"><svg/onload=window.__xss='edit'><img/src=x/onerror=alert(1)>`;
    const refused = await edit({ targetServer: target });
    expect(refused.status).toBe(400);
    await page.goto('/');
    const card = page.locator(`[data-testid="proxy-card"][data-proxy-id="${id}"]`);
    await card.getByTestId('proxy-edit').click();
    await page.getByTestId('edit-proxy-dialog').locator('#edit-target').fill(target);
    await page.getByTestId('edit-proxy-save').click();
    await expect(fieldError(page, 'edit-target')).toBeVisible();
    await expect(page.getByTestId('edit-proxy-dialog').locator('#edit-target')).toHaveValue(target);
    await expectInert(page, watch, 'edit refused');
    await screenshotScreen(page, AREA, 'dialog-edit-refused');

    // Destination name, description and maintenance note are free text (admin only).
    const { page: admin, watch: adminWatch, close } = await adminPage(browser, xssApp);
    await admin.goto('/admin/destinations');
    await admin.getByTestId('destination-add').click();
    const dialog = admin.getByTestId('destination-dialog');
    await dialog.locator('#destination-name').fill(PAYLOADS.img);
    await dialog.locator('#destination-endpoint').fill('127.0.0.1:9');
    await dialog.locator('#destination-description').fill(PAYLOADS.script);
    await dialog.locator('#destination-maintenance').fill(PAYLOADS.svg);
    await admin.getByTestId('destination-save').click();
    await expectToast(admin, text('es', 'admin.destinations.created'), PAYLOADS.img);
    await expectInert(admin, adminWatch, 'destination created toast');
    await screenshotScreen(admin, AREA, 'admin-destination-created');
    await close();

    // The user's wizard lists it.
    await page.goto(`/proxy-wizard?continueId=${xssApp.proxies.template}`);
    const option = page
      .getByTestId('wizard-destination-option')
      .filter({ hasText: PAYLOADS.script })
      .filter({ hasText: PAYLOADS.img });
    await expect(option).toHaveCount(1);
    await expectInert(page, watch, 'wizard lists the new destination');
  });

  test('a hostile server’s output reaches the live and stored logs as text', async ({
    page,
    xssApp,
  }) => {
    const said = `${PAYLOADS.img} ${PAYLOADS.svg} ${PAYLOADS.script}`;
    const server = await startHostileSshServer(said, PAYLOADS.template);
    try {
      const watch = await asOwner(page, xssApp);
      // Saved for the hostile server's port from the start: an edit to it would clear the
      // password (a saved password is only sent where it was entered for).
      const { id } = await loopbackProxy(page.request, 'hostile', server.port);

      await page.goto(`/proxy-wizard?continueId=${id}`);
      await page.getByTestId('wizard-deploy-start').click();
      const panel = page.getByTestId('wizard-log-panel');
      await expect(panel).toContainText(said, { timeout: 30_000 });
      await expect(page.getByTestId('wizard-deploy-error')).toBeVisible({ timeout: 30_000 });
      // The cause is named (not "unexpected error"): the login could not act as root.
      await expect(panel).toContainText('no pudieron ejecutarse como root: id -u dijo');
      await expect(panel).not.toContainText('inesperado');
      expect(server.commands.length).toBeGreaterThan(0);
      await expectInert(page, watch, 'wizard live log');
      await screenshotScreen(page, AREA, 'wizard-hostile-server');

      await page.goto(`/proxy-details/${id}`);
      await expect(page.getByTestId('deployment-logs')).toContainText(said);
      await expectInert(page, watch, 'details stored log');
      await screenshotScreen(page, AREA, 'details-hostile-server');

      // Re-run from the details page (its live log): now the text arrives inside Portico's own
      // translated sentence about the system, interpolated from /etc/os-release.
      server.pretendRoot = true;
      await page.getByTestId('action-redeploy').click();
      await page.getByTestId('redeploy-confirm').click();
      const logs = page.getByTestId('deployment-logs');
      await expect(logs).toContainText(`ID=${PAYLOADS.template}`, { timeout: 30_000 });
      await expect(page.getByTestId('summary-state').first()).toHaveAttribute(
        'data-state',
        /^failed/,
        { timeout: 30_000 },
      );
      await expectInert(page, watch, 'details live log');
      await screenshotScreen(page, AREA, 'details-hostile-os');
    } finally {
      await server.stop();
    }
  });

  test('confirmations and toasts that name hostile things show them as text', async ({
    page,
    browser,
    xssApp,
  }) => {
    const watch = await asOwner(page, xssApp);
    await visit(page, watch, `/proxy-details/${xssApp.proxies.img}`, 'management-panel');
    await page.getByTestId('action-delete').click();
    await expect(page.getByTestId('delete-dialog')).toContainText(PAYLOADS.img);
    await expectInert(page, watch, 'delete dialog');
    await screenshotScreen(page, AREA, 'dialog-delete');
    await page.getByTestId('delete-cancel').click();
    const { id } = await loopbackProxy(page.request, 'owned');

    const { page: admin, watch: adminWatch, close } = await adminPage(browser, xssApp);
    await visit(admin, adminWatch, '/', 'admin-section');
    await admin
      .locator(`[data-testid="admin-proxy-row"][data-proxy-id="${id}"]`)
      .getByTestId('admin-proxy-edit')
      .click();
    await admin.getByTestId('edit-proxy-dialog').locator('#edit-target').fill('http://127.0.0.1:8');
    await admin.getByTestId('edit-proxy-save').click();
    // The toast names the owner, whose username is a payload.
    await expectToast(
      admin,
      text('es', 'proxies.edit.successAdmin'),
      text('es', 'proxies.edit.successAdminDescription', { owner: xssApp.owner.username }),
    );
    await expectInert(admin, adminWatch, 'admin edit toast');

    await visit(admin, adminWatch, '/admin/users', 'admin-user');
    await admin
      .getByTestId('admin-user')
      .filter({ hasText: xssApp.otherEmail })
      .getByTestId('admin-user-role')
      .click();
    await expect(admin.getByTestId('admin-role-dialog')).toContainText(xssApp.otherUsername);
    await expectInert(admin, adminWatch, 'role dialog');
    await screenshotScreen(admin, AREA, 'admin-dialog-role');
    await admin.keyboard.press('Escape');

    await visit(admin, adminWatch, '/admin/destinations', 'admin-destination');
    const hostile = admin
      .getByTestId('admin-destination')
      .filter({ hasText: PAYLOADS.template })
      .first();
    await hostile.getByTestId('destination-toggle').click();
    await expect(admin.getByTestId('destination-confirm')).toContainText(PAYLOADS.template);
    await expectInert(admin, adminWatch, 'destination confirmation');
    await screenshotScreen(admin, AREA, 'admin-dialog-destination');
    await admin.getByTestId('destination-confirm-action').click();
    await expect(toast(admin)).toContainText(PAYLOADS.template);
    await expectInert(admin, adminWatch, 'destination toggled toast');
    await close();
  });
});
