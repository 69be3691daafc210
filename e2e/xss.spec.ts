import { text } from './fixtures/catalog';
import { api } from './fixtures/lab-api';
import { screenshotScreen } from './fixtures/screenshots';
import { expectToast, fieldError } from './fixtures/ui';
import { expect, test } from './fixtures/xss-app';
import {
  expectInert,
  expectLiteral,
  PAYLOAD_NAMES,
  PAYLOADS,
  watchXss,
} from './fixtures/xss-payloads';
import { hostileScanAnswer, startHostileSshServer } from './fixtures/xss-ssh-server';
import { asAdmin, asOwner, visit } from './fixtures/xss-steps';

// Stored XSS. Hostile values were planted in every displayed field before this
// Portico started (fixtures/xss-plant.ts); the tests open every screen that shows them, with the
// CSP bypassed, and require them as plain text. Hostile input through the forms, the API and a
// hostile SSH server is in xss-input.spec.ts.
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
    const watch = await asOwner(page, xssApp);
    await visit(page, watch, '/', 'proxy-card');
    await expect(page.getByTestId('header-username')).toHaveText(xssApp.owner.username);
    await expect(page.getByTestId('welcome-heading')).toContainText(
      `${PAYLOADS.svg} ${PAYLOADS.template}`,
    );
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
    // xss-input.spec.ts may have added proxies of its own: only the planted rows are counted.
    for (const name of PAYLOAD_NAMES) {
      await expect(
        page.locator(`[data-testid="proxy-row"][data-proxy-id="${xssApp.proxies[name]}"]`),
      ).toContainText(PAYLOADS[name]);
    }
    await expectLiteral(page.locator('main'));
    await expectInert(page, watch, 'home table');
    await screenshotScreen(page, AREA, 'home-table');
  });

  test('owner: details of every proxy, with its logs and access URLs', async ({ page, xssApp }) => {
    const watch = await asOwner(page, xssApp);
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
      // Every planted line (the reaper may add one of its own to the one left "deploying").
      await expectLiteral(page.getByTestId('deployment-logs'));
      const links = page.getByTestId('access-urls').locator('a');
      await expect(links.nth(0)).toHaveAttribute('href', `http://${p}`);
      await expect(links.nth(1)).toHaveAttribute('href', `https://${p}`);
      await expectInert(page, watch, `details ${name}`);
      await screenshotScreen(page, AREA, `details-${name}`);
    }
  });

  test('owner: adopted sites show the path, file and target a scan read, as text', async ({
    page,
    xssApp,
  }) => {
    const watch = await asOwner(page, xssApp);
    for (const name of PAYLOAD_NAMES) {
      const p = PAYLOADS[name];
      await visit(page, watch, `/proxy-details/${xssApp.adopted[name]}`, 'proxy-adopted');
      await expect(page.getByTestId('details-domain')).toHaveText(`${p}.adopted`);
      await expect(page.getByTestId('proxy-adopted')).toContainText(
        `/etc/nginx/sites-enabled/${p}`,
      );
      const file = page.getByTestId('proxy-adopted-file');
      for (const shown of [`# ${p}`, `server_name ${p};`, `proxy_pass ${p};`]) {
        await expect(file).toContainText(shown);
      }
      await expectInert(page, watch, `adopted ${name}`);
      await screenshotScreen(page, AREA, `adopted-${name}`);
    }
  });

  test('owner: a scan of a hostile server lists its targets as text', async ({ page, xssApp }) => {
    const server = await startHostileSshServer('scan', 'debian', {
      scanAnswer: hostileScanAnswer(PAYLOADS),
    });
    try {
      const watch = await asOwner(page, xssApp);
      const saved = await api(page.request, 'POST', '/api/ssh-servers', {
        name: `scan-${Date.now().toString(36)}`,
        host: '127.0.0.1',
        port: server.port,
        username: 'root',
        authKind: 'password',
        password: 'anything',
      });
      expect(saved.status, JSON.stringify(saved.json)).toBe(201);
      await visit(page, watch, `/servers/${saved.json.id}`, 'sites-scan');
      await page.getByTestId('sites-scan').click();
      const list = page.getByTestId('sites-list');
      for (const name of PAYLOAD_NAMES) {
        const row = (host: string) => list.getByTestId('site-row').filter({ hasText: host });
        await expect(row(`${name}.scan.test`)).toContainText(
          `http://127.0.0.1:9/${PAYLOADS[name]}`,
        );
        await expect(row(`${name}-moved.scan.test`)).toContainText(PAYLOADS[name]);
      }
      // A name or a file path outside the scan's allowlists is left out, never shown.
      await expect(list.getByTestId('site-row').filter({ hasText: '-file.scan.test' })).toHaveCount(
        0,
      );
      await expectInert(page, watch, 'site scan');
      await screenshotScreen(page, AREA, 'server-scan');
    } finally {
      await server.stop();
    }
  });

  test('owner: the wizard resumed on each proxy and the edit dialog', async ({ page, xssApp }) => {
    const watch = await asOwner(page, xssApp);
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
    const watch = await asAdmin(page, xssApp);
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
