import { signIn } from './fixtures/auth';
import { text } from './fixtures/catalog';
import { screenshotScreen } from './fixtures/screenshots';
import { expectToast, fieldError, submitLogin, submitRegister, toast } from './fixtures/ui';
import { expect, test } from './fixtures/xss-app';
import {
  expectInert,
  expectLiteral,
  PAYLOAD_NAMES,
  PAYLOADS,
  watchXss,
} from './fixtures/xss-payloads';
import { startHostileSshServer } from './fixtures/xss-ssh-server';
import { loopbackProxy, ownerLogin, visit } from './fixtures/xss-steps';

// Issue 8 part 4: stored XSS. Hostile values were planted in every displayed field before this
// Portico started (fixtures/xss-plant.ts); the tests open every screen that shows them, with the
// CSP bypassed, and require them as plain text. The second group sends hostile input through the
// forms and the API (refusals must show it as text) and deploys to a hostile SSH server.
const AREA = 'xss';

test('the check itself sees an injected element, a handler that ran and a javascript: link', async ({
  page,
}) => {
  for (const html of [
    PAYLOADS.img,
    `<a href="${PAYLOADS.js}">open</a>`,
    `<a href=" java\tscript:void(0)">open</a>`,
  ]) {
    const watch = watchXss(page);
    await page.setContent(`<main>${html}</main>`);
    await expect(expectInert(page, watch, 'planted on purpose')).rejects.toThrow();
  }
});

test.describe('stored XSS: planted values render as text', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('owner: header, home cards and table, copy toast', async ({ page, xssApp }) => {
    const watch = watchXss(page);
    await signIn(page, ownerLogin(xssApp), 'login');
    await visit(page, watch, '/', 'proxy-card');
    await expect(page.getByTestId('header-username')).toHaveText(xssApp.owner.username);
    await expect(page.getByTestId('welcome-heading')).toContainText(PAYLOADS.svg);
    const list = page.locator('main');
    await expectLiteral(list);
    for (const name of PAYLOAD_NAMES) {
      const card = page.locator(
        `[data-testid="proxy-card"][data-proxy-id="${xssApp.proxies[name]}"]`,
      );
      await expect(card.getByTestId('proxy-card-link')).toHaveText(PAYLOADS[name]);
      await expect(card).toContainText(`${PAYLOADS[name]}@`);
    }
    // The completed one offers "Abrir": a link to https://<domain>, never javascript:.
    const completed = page.locator(
      `[data-testid="proxy-card"][data-proxy-id="${xssApp.proxies.script}"]`,
    );
    await expect(completed.getByTestId('proxy-open')).toHaveAttribute(
      'href',
      `https://${PAYLOADS.script}`,
    );
    await screenshotScreen(page, AREA, 'home');

    await completed.getByTestId('proxy-copy').click();
    await expectToast(page, text('es', 'proxies.copy.success'), `https://${PAYLOADS.script}`);
    await expectInert(page, watch, 'copy toast');
    await screenshotScreen(page, AREA, 'home-toast');

    await page.getByTestId('view-table').click();
    await expect(page.getByTestId('proxy-row')).toHaveCount(PAYLOAD_NAMES.length);
    await expectLiteral(page.locator('main'));
    await expectInert(page, watch, 'home table');
    await screenshotScreen(page, AREA, 'home-table');
  });

  test('owner: details of every proxy, with its logs and access URLs', async ({ page, xssApp }) => {
    const watch = watchXss(page);
    await signIn(page, ownerLogin(xssApp), 'login');
    for (const name of PAYLOAD_NAMES) {
      await visit(page, watch, `/proxy-details/${xssApp.proxies[name]}`, 'basic-info');
      const p = PAYLOADS[name];
      await expect(page.getByTestId('details-domain')).toHaveText(p);
      await expect(page.getByTestId('detail-server-ip')).toHaveText(p);
      const info = page.getByTestId('basic-info');
      for (const shown of [p, `SHA256:${p}`, `${p}.sh`]) await expect(info).toContainText(shown);
      await expect(page.getByTestId('detail-nginx-path')).toHaveText(
        `/etc/nginx/sites-available/proxy-${p}`,
      );
      await expect(page.getByTestId('log-line')).toHaveCount(PAYLOAD_NAMES.length);
      await expectLiteral(page.getByTestId('deployment-logs'));
      const links = page.getByTestId('access-urls').locator('a');
      await expect(links.nth(0)).toHaveAttribute('href', `http://${p}`);
      await expect(links.nth(1)).toHaveAttribute('href', `https://${p}`);
      await expectInert(page, watch, `details ${name}`);
      await screenshotScreen(page, AREA, `details-${name}`);
    }
  });

  test('owner: the wizard resumed on each proxy and the edit dialog', async ({ page, xssApp }) => {
    const watch = watchXss(page);
    await signIn(page, ownerLogin(xssApp), 'login');
    for (const name of PAYLOAD_NAMES) {
      await page.goto(`/proxy-wizard?continueId=${xssApp.proxies[name]}`);
      await expect(page.getByTestId('wizard-progress-server-info')).toBeVisible();
      await expect(page.locator('main')).toContainText(PAYLOADS[name]);
      await expectInert(page, watch, `wizard ${name}`);
      await screenshotScreen(page, AREA, `wizard-${name}`);
    }
    // The template proxy has no target: the destination step lists the planted destinations.
    await page.goto(`/proxy-wizard?continueId=${xssApp.proxies.template}`);
    const options = page.getByTestId('wizard-destination-option');
    await expect(options.first()).toBeVisible();
    await expectLiteral(page.locator('main'));
    await expectInert(page, watch, 'wizard destinations');

    await page.goto('/');
    const card = page.locator(`[data-testid="proxy-card"][data-proxy-id="${xssApp.proxies.img}"]`);
    await card.getByTestId('proxy-edit').click();
    const dialog = page.getByTestId('edit-proxy-dialog');
    await expect(dialog.locator('#edit-target')).toHaveValue(PAYLOADS.img);
    await expect(dialog.locator('#edit-domain')).toHaveValue(PAYLOADS.img);
    await page.getByTestId('edit-proxy-save').click();
    await expect(fieldError(page, 'edit-domain')).toBeVisible();
    await expectInert(page, watch, 'edit dialog');
    await screenshotScreen(page, AREA, 'dialog-edit');
  });

  test('admin: all proxies, users, audit, destinations and the admin edit dialog', async ({
    page,
    xssApp,
  }) => {
    const watch = watchXss(page);
    await signIn(page, xssApp.admin, 'login');
    await visit(page, watch, '/', 'admin-section');
    const section = page.getByTestId('admin-section');
    await expect(section.getByTestId('admin-all-proxies')).toContainText(xssApp.otherUsername);
    await expect(section.getByTestId('admin-all-proxies')).toContainText(xssApp.otherEmail);
    await expectLiteral(section.getByTestId('admin-all-proxies'));
    await expect(section.getByTestId('admin-proxies-by-user')).toContainText(xssApp.owner.username);
    await screenshotScreen(page, AREA, 'admin-home');

    const row = page.locator(
      `[data-testid="admin-proxy-row"][data-proxy-id="${xssApp.otherProxy}"]`,
    );
    await row.getByTestId('admin-proxy-edit').click();
    const owner = page.getByTestId('edit-proxy-dialog').getByTestId('edit-proxy-owner');
    await expect(owner).toContainText(xssApp.otherUsername);
    await expect(owner).toContainText(xssApp.otherEmail);
    await expectInert(page, watch, 'admin edit dialog');
    await screenshotScreen(page, AREA, 'admin-dialog-edit');

    await visit(page, watch, '/admin/users', 'admin-user');
    for (const shown of [xssApp.owner.username, xssApp.otherUsername, xssApp.otherEmail]) {
      await expect(page.locator('main')).toContainText(shown);
    }
    await screenshotScreen(page, AREA, 'admin-users');

    await visit(page, watch, '/admin/audit', 'audit-entry');
    const entries = page.getByTestId('audit-entry');
    for (const name of PAYLOAD_NAMES) {
      const entry = entries.filter({
        has: page.getByTestId('audit-actor').getByText(PAYLOADS[name], { exact: true }),
      });
      await expect(entry).toHaveCount(1);
      await expect(entry.getByTestId('audit-change')).toContainText(PAYLOADS[name]);
      await expect(entry.getByTestId('audit-target')).toContainText(PAYLOADS[name]);
    }
    await screenshotScreen(page, AREA, 'admin-audit');

    await visit(page, watch, '/admin/destinations', 'admin-destination');
    await expectLiteral(page.locator('main'));
    await screenshotScreen(page, AREA, 'admin-destinations');
  });
});

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

    await signIn(page, ownerLogin(xssApp), 'login');
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

  test('a target with markup is refused as text; an admin destination takes free text', async ({
    page,
    browser,
    xssApp,
  }) => {
    const watch = watchXss(page);
    await signIn(page, ownerLogin(xssApp), 'login');
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
    const adminContext = await browser.newContext({ baseURL: xssApp.url, bypassCSP: true });
    const admin = await adminContext.newPage();
    const adminWatch = watchXss(admin);
    await signIn(admin, xssApp.admin, 'login');
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
    await adminContext.close();

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
    const server = await startHostileSshServer(said);
    try {
      const watch = watchXss(page);
      await signIn(page, ownerLogin(xssApp), 'login');
      const { id, edit } = await loopbackProxy(page.request, 'hostile');
      const edited = await edit({ sshPort: server.port });
      expect(edited.status, JSON.stringify(edited.json)).toBe(200);

      await page.goto(`/proxy-wizard?continueId=${id}`);
      await page.getByTestId('wizard-deploy-start').click();
      const panel = page.getByTestId('wizard-log-panel');
      await expect(panel).toContainText(said, { timeout: 30_000 });
      await expect(page.getByTestId('wizard-deploy-error')).toBeVisible({ timeout: 30_000 });
      expect(server.commands.length).toBeGreaterThan(0);
      await expectInert(page, watch, 'wizard live log');
      await screenshotScreen(page, AREA, 'wizard-hostile-server');

      await page.goto(`/proxy-details/${id}`);
      await expect(page.getByTestId('deployment-logs')).toContainText(said);
      await expectInert(page, watch, 'details stored log');
      await screenshotScreen(page, AREA, 'details-hostile-server');
    } finally {
      await server.stop();
    }
  });
});
