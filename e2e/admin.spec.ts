import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from '@playwright/test';
import { ADMIN_BACKUP_TIME, expect, type TAdminApp, test } from './fixtures/admin-app';
import { signIn } from './fixtures/auth';
import { text } from './fixtures/catalog';
import { api, saveUndeployedProxy } from './fixtures/lab-api';
import { chooseLanguage, expectToast } from './fixtures/ui';
import { type TE2EUser, uniqueUser } from './fixtures/users';
import { capture, expectStep } from './fixtures/wizard';

// The admin screens on a Portico of its own (an admin exists only through the CLI, before the server
// starts). Two users with a proxy each, saved through the API: nothing is deployed.
const AREA = 'admin';

function row(page: Page, id: string) {
  return page.locator(`[data-testid="admin-proxy-row"][data-proxy-id="${id}"]`);
}

/** A page of its own browser context, signed in as the user (registered on first use). */
async function userPage(
  browser: Browser,
  app: TAdminApp,
  user: TE2EUser,
  mode: 'register' | 'login',
) {
  const context = await browser.newContext({ baseURL: app.url, locale: 'fr-FR' });
  const page = await context.newPage();
  await signIn(page, user, mode);
  return page;
}

/** A TCP port nothing listens on: taken from the kernel, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

test.describe('an administrator', () => {
  test.describe.configure({ mode: 'serial' });

  const owner = uniqueUser('ona');
  const other = uniqueUser('oto');
  const stamp = Date.now().toString(36);
  const ownerDomain = `own-${stamp}.example.com`;
  const otherDomain = `oth-${stamp}.example.com`;
  const before = 'http://10.0.0.5:8080';
  const after = 'http://10.0.0.6:9090';
  const ids = { owner: '', other: '' };

  test.beforeEach(async ({ page, adminApp }) => {
    await signIn(page, adminApp.admin, 'login');
  });

  test('sees every proxy, edits another user’s, the owner sees it and the audit says who', async ({
    page,
    browser,
    adminApp,
  }) => {
    const ownerPage = await userPage(browser, adminApp, owner, 'register');
    ids.owner = await saveUndeployedProxy(ownerPage.request, ownerDomain, before);
    const otherPage = await userPage(browser, adminApp, other, 'register');
    ids.other = await saveUndeployedProxy(otherPage.request, otherDomain, before);
    await otherPage.context().close();

    await page.goto('/');
    const section = page.getByTestId('admin-section');
    await expect(section).toBeVisible();
    await expect(section.getByRole('heading', { name: text('es', 'admin.title') })).toBeVisible();
    await expect(row(page, ids.owner)).toContainText(ownerDomain);
    await expect(row(page, ids.owner)).toContainText(owner.username);
    await expect(row(page, ids.other)).toContainText(otherDomain);
    await expect(row(page, ids.other)).toContainText(other.username);
    // The dashboard first, above the admin's own list.
    const dashboard = await section.boundingBox();
    const ownList = await page.locator('#proxies').boundingBox();
    expect(dashboard!.y).toBeLessThan(ownList!.y);
    // The owner's summary (saved, nothing on a server), and the domain opens the proxy.
    await expect(row(page, ids.owner).getByTestId('summary-state')).toHaveText(
      text('es', 'certificate.summary.state.pending'),
    );
    await expect(row(page, ids.owner).getByTestId('admin-domain-link')).toHaveAttribute(
      'href',
      `/proxy-details/${ids.owner}`,
    );
    await capture(page, AREA, 'home');
    await chooseLanguage(page, 'es', 'en');
    await expect(row(page, ids.owner).getByTestId('summary-state')).toHaveText(
      text('en', 'certificate.summary.state.pending'),
    );
    await capture(page, AREA, 'home-en');
    await chooseLanguage(page, 'en', 'es');

    await row(page, ids.owner).getByTestId('admin-proxy-edit').click();
    const dialog = page.getByTestId('edit-proxy-dialog');
    await expect(dialog.getByTestId('edit-proxy-owner')).toContainText(owner.username);
    await expect(dialog.getByTestId('edit-proxy-owner')).toContainText(owner.email);
    await expect(dialog.locator('#edit-target')).toHaveValue(before);
    await capture(page, AREA, 'dialog-edit');
    await dialog.locator('#edit-target').fill(after);
    await page.getByTestId('edit-proxy-save').click();
    await expectToast(
      page,
      text('es', 'proxies.edit.successAdmin'),
      text('es', 'proxies.edit.successAdminDescription', { owner: owner.username }),
    );
    await expect(dialog).toBeHidden();
    await expect(row(page, ids.owner)).toContainText(after);
    await expect(row(page, ids.other)).toContainText(before);

    // Moving it onto another of the owner's saved servers: the select offers the owner's only.
    const second = await api(ownerPage.request, 'POST', '/api/ssh-servers', {
      name: `ona-second-${stamp}`,
      host: '198.18.0.77',
      username: 'deploy',
      authKind: 'password',
      password: 'not-used-here',
    });
    expect(second.status, JSON.stringify(second.json)).toBe(201);
    await row(page, ids.owner).getByTestId('admin-proxy-edit').click();
    const choice = dialog.getByTestId('edit-server-choice');
    await expect(choice.locator('option')).toHaveCount(3);
    await expect(choice).toContainText(`ona-second-${stamp} · deploy@198.***.***.77`);
    await choice.selectOption(second.json.id);
    await expect(dialog.getByTestId('edit-server-moving-note')).toHaveText(
      text('es', 'servers.editChoice.movingNote'),
    );
    await capture(page, AREA, 'dialog-move-server');
    await page.getByTestId('edit-proxy-save').click();
    await expect(dialog).toBeHidden();
    const moved = await api(page.request, 'GET', `/api/proxy-configurations/${ids.owner}`);
    expect(moved.json).toMatchObject({
      sshServerId: second.json.id,
      serverIp: '198.18.0.77',
      sshUser: 'deploy',
    });

    // The owner's dashboard shows the admin's change.
    await ownerPage.goto('/');
    const card = ownerPage.locator(`[data-testid="proxy-card"][data-proxy-id="${ids.owner}"]`);
    await expect(card.getByTestId('proxy-target')).toHaveText(after);
    await ownerPage.context().close();

    await section.getByTestId('admin-link-audit').click();
    await expect(page).toHaveURL(/\/admin\/audit$/);
    const entry = page
      .getByTestId('audit-entry')
      .filter({ has: page.getByTestId('audit-change').filter({ hasText: after }) });
    await expect(entry).toHaveCount(1);
    await expect(entry.getByTestId('audit-actor')).toHaveText(adminApp.admin.username);
    const change = entry.getByTestId('audit-change').filter({ hasText: after });
    await expect(change).toContainText(text('es', 'admin.audit.fields.targetServer'));
    await expect(change).toContainText(before);
    await capture(page, AREA, 'audit');

    // The proxy filter: the server searches as the admin types; the choice goes in the address.
    await page.getByTestId('audit-proxy-picker').click();
    const proxySearch = page.getByRole('combobox', {
      name: text('es', 'admin.audit.searchProxies'),
    });
    await proxySearch.fill(ownerDomain);
    await expect(page.getByRole('option', { name: ownerDomain })).toBeVisible();
    await expect(page.getByRole('option')).toHaveCount(2);
    await capture(page, AREA, 'audit-picker');
    await proxySearch.press('ArrowDown');
    await proxySearch.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/admin/audit\\?proxy=${ids.owner}$`));
    await expect(page.getByTestId('audit-proxy-picker')).toHaveText(ownerDomain);
    const targets = page.getByTestId('audit-target');
    await expect(targets.first()).toContainText(ownerDomain);
    for (const target of await targets.all()) await expect(target).toContainText(ownerDomain);
    await page.reload();
    await expect(page.getByTestId('audit-proxy-picker')).toHaveText(ownerDomain);
    await page.goBack();
    await expect(page).toHaveURL(/\/admin\/audit$/);
    await expect(page.getByTestId('audit-proxy-picker')).toHaveText(
      text('es', 'admin.audit.allProxies'),
    );
    // The user filter in English, then back to the admin's Spanish for the steps after.
    await chooseLanguage(page, 'es', 'en');
    await page.getByTestId('audit-user-picker').click();
    const userSearch = page.getByRole('combobox', { name: text('en', 'admin.audit.searchUsers') });
    await userSearch.fill(owner.username);
    await expect(page.getByRole('option', { name: new RegExp(owner.username) })).toBeVisible();
    await capture(page, AREA, 'audit-picker-en');
    await page.getByRole('option', { name: new RegExp(owner.username) }).click();
    await expect(page).toHaveURL(/\/admin\/audit\?user=[0-9a-f-]{36}$/);
    await expect(page.getByTestId('audit-user-picker')).toHaveText(owner.username);
    await chooseLanguage(page, 'en', 'es');

    await page.goto('/admin/users');
    const ownerRow = page.getByTestId('admin-user').filter({ hasText: owner.username });
    await expect(ownerRow).toBeVisible();
    await expect(ownerRow.getByTestId('admin-user-role')).toBeVisible();
    await capture(page, AREA, 'users');
  });

  test('sees the backup schedule on the dashboard, in both languages', async ({ page }) => {
    await page.goto('/');
    const card = page.getByTestId('admin-backups');
    await expect(card.getByTestId('admin-backup-schedule')).toContainText(
      `Cada día a las ${ADMIN_BACKUP_TIME} UTC en `,
    );
    await expect(card).toContainText(text('es', 'settings.backups.never'));
    await card.scrollIntoViewIfNeeded();
    await capture(page, AREA, 'backups-es');
    await chooseLanguage(page, 'es', 'en');
    await expect(card.getByTestId('admin-backup-schedule')).toContainText(
      `Every day at ${ADMIN_BACKUP_TIME} UTC into `,
    );
    await expect(card).toContainText(text('en', 'settings.backups.notEncrypted'));
    await capture(page, AREA, 'backups-en');
    await chooseLanguage(page, 'en', 'es');
  });

  test('adds destinations; a user’s wizard lists them and cannot pick the offline one', async ({
    page,
    browser,
    adminApp,
  }) => {
    const upstream: Server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const live = {
      name: `Vivo ${stamp}`,
      endpoint: `127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    };
    const dead = { name: `Caido ${stamp}`, endpoint: `127.0.0.1:${await closedPort()}` };
    try {
      await page.goto('/');
      await page.getByTestId('admin-link-destinations').click();
      await expect(page).toHaveURL(/\/admin\/destinations$/);
      for (const [i, destination] of [live, dead].entries()) {
        await page.getByTestId('destination-add').click();
        const dialog = page.getByTestId('destination-dialog');
        await dialog.locator('#destination-name').fill(destination.name);
        await dialog.locator('#destination-endpoint').fill(destination.endpoint);
        if (i === 0) await capture(page, AREA, 'dialog-destination');
        await page.getByTestId('destination-save').click();
        await expectToast(page, text('es', 'admin.destinations.created'), destination.name);
        await expect(dialog).toBeHidden();
        await expect(
          page.getByTestId('admin-destination').filter({ hasText: destination.name }),
        ).toBeVisible();
      }
      // Probed as soon as they were saved, not at the next minute's probe: the list shows it.
      const statusOf = (name: string) =>
        page
          .getByTestId('admin-destination')
          .filter({ hasText: name })
          .getByTestId('destination-status');
      await expect(statusOf(live.name)).toHaveText(text('es', 'admin.destinations.status.online'));
      await expect(statusOf(dead.name)).toHaveText(text('es', 'admin.destinations.status.offline'));
      await capture(page, AREA, 'destinations');
      await chooseLanguage(page, 'es', 'en');
      await expect(statusOf(live.name)).toHaveText(text('en', 'admin.destinations.status.online'));
      await capture(page, AREA, 'destinations-en');
      await chooseLanguage(page, 'en', 'es');

      const userPageSignedIn = await userPage(browser, adminApp, owner, 'login');
      const id = await saveUndeployedProxy(userPageSignedIn.request, `wiz-${stamp}.example.com`);
      const wizard = `/proxy-wizard?continueId=${encodeURIComponent(id)}`;
      await userPageSignedIn.goto(wizard);
      await expectStep(userPageSignedIn, 'destination');
      const option = (name: string) =>
        userPageSignedIn.getByTestId('wizard-destination-option').filter({ hasText: name });
      await expect(option(live.name)).toContainText(live.endpoint);
      await expect(option(dead.name)).toContainText(dead.endpoint);

      await expect(option(dead.name).getByRole('radio')).toBeDisabled();
      await expect(option(dead.name)).toContainText(text('es', 'wizard.destination.offlineNote'));
      await expect(option(live.name).getByRole('radio')).toBeEnabled();
      await option(dead.name).click({ force: true });
      await expect(option(dead.name).getByRole('radio')).not.toBeChecked();
      await option(live.name).click();
      await expect(option(live.name).getByRole('radio')).toBeChecked();
      await userPageSignedIn.context().close();

      await page.reload();
      await expect(statusOf(dead.name)).toHaveText(text('es', 'admin.destinations.status.offline'));
    } finally {
      await new Promise((r) => upstream.close(r));
    }
  });
});
