import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type Browser, expect, request as playwrightRequest, test } from '@playwright/test';
import { pgliteStartParams } from '../apps/server/src/db/pglite-dir';
import { createUser } from './fixtures/auth';
import { type TLang, text } from './fixtures/catalog';
import { api } from './fixtures/lab-api';
import { porticoEnv, startPortico, type TPorticoProcess } from './fixtures/portico-process';
import { expectActionsInView, screenshotScreen, WIDTHS } from './fixtures/screenshots';
import { expectToast } from './fixtures/ui';
import { type TE2EUser, uniqueUser } from './fixtures/users';

// The saved servers' pages in Chromium, in English and in Spanish: the list from the user's
// menu (host masked, proxy count), a server added with a key Portico generates (its public key
// shown), the server's page (facts not read yet, its proxy linked, the pinned host key
// forgotten after a confirmation, "Check all certificates" run in the background and its
// per-proxy outcome), and a delete refused while a proxy uses the server, which
// then offers to remove their sites too. Screenshots at 1280 and 390 px.
//
// The spec saves the server and a proxy on it through the API (the proxy chosen onto the server
// by its id, as the wizard does); only what nothing but a real sshd's answer stores (a pinned
// host key, a check's facts) is written in the data dir while its own Portico is stopped. The
// wizard's first step then warns of what the busy server's facts say.

const PORT = Number(process.env.E2E_ADMIN_PORT ?? 3250);
const FINGERPRINT = 'SHA256:e2eServersSpecPinnedKey0000000000000000000';
const HOST = '198.18.0.10';

type TSeed = {
  user: TE2EUser;
  serverId: string;
  serverName: string;
  proxyDomain: string;
  /** A second server whose last check found apache2 on port 80 (the wizard warns of it). */
  busyId: string;
  busyName: string;
};
type TApp = { url: string; seeds: Record<TLang, TSeed> };

async function seedAccount(url: string, lang: TLang): Promise<TSeed> {
  const request = await playwrightRequest.newContext({ baseURL: url });
  const user = uniqueUser(lang === 'en' ? 'sam' : 'sol');
  await createUser(request, user);
  const serverName = `edge-${lang}`;
  const server = await api(request, 'POST', '/api/ssh-servers', {
    name: serverName,
    host: HOST,
    username: 'root',
    authKind: 'password',
    password: 'not-used-here',
  });
  expect(server.status, JSON.stringify(server.json)).toBe(201);
  // The proxy is put on the saved server as the wizard does when it is chosen: by its id.
  const proxyDomain = `app-${lang}-${Date.now().toString(36)}.example.test`;
  const proxy = await api(request, 'POST', '/api/proxy-configurations', {
    sshServerId: server.json.id,
    domain: proxyDomain,
    email: `admin@${proxyDomain}`,
  });
  expect(proxy.status, JSON.stringify(proxy.json)).toBe(200);
  const read = await api(request, 'GET', `/api/proxy-configurations/${proxy.json.id}`);
  expect(read.json.sshServerId).toBe(server.json.id);
  const busyName = `busy-${lang}`;
  const busy = await api(request, 'POST', '/api/ssh-servers', {
    name: busyName,
    host: '198.18.0.11',
    username: 'root',
    authKind: 'password',
    password: 'not-used-here',
  });
  expect(busy.status, JSON.stringify(busy.json)).toBe(201);
  await request.dispose();
  return {
    user,
    serverId: server.json.id,
    serverName,
    proxyDomain,
    busyId: busy.json.id,
    busyName,
  };
}

/** What "Check now" would have stored for a server where apache2 holds port 80. */
const BUSY_FACTS = {
  os: { id: 'debian', version: '12', name: 'Debian GNU/Linux 12 (bookworm)' },
  initSystem: 'systemd',
  rootAccess: 'root',
  nginx: { version: null, running: false },
  certbot: { version: null },
  renewal: 'none',
  ports: [
    { port: 80, listening: true, program: 'apache2' },
    { port: 443, listening: false, program: null },
  ],
  diskFreeBytes: 5 * 1024 ** 3,
};

/**
 * Pins a host key on each seeded server and stores the busy server's facts, as a first contact
 * and a "Check now" with a real sshd would: this spec runs without test servers, and no API
 * route sets a pin or facts (only a real server's answer does).
 */
async function checkedInDataDir(dataDir: string, seeds: TSeed[]) {
  const db = await PGlite.create({
    dataDir: join(dataDir, 'db'),
    startParams: pgliteStartParams(PGlite),
  });
  try {
    for (const seed of seeds) {
      await db.query('update ssh_servers set host_key_fingerprint = $1 where id = $2', [
        FINGERPRINT,
        seed.serverId,
      ]);
      await db.query(
        'update ssh_servers set facts = $1, reachable = true, last_checked_at = now() where id = $2',
        [JSON.stringify(BUSY_FACTS), seed.busyId],
      );
    }
  } finally {
    await db.close();
  }
}

const app = test.extend<object, { serversApp: TApp }>({
  serversApp: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright needs the destructuring
    async ({}, use) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'portico-e2e-servers-'));
      let portico: TPorticoProcess | undefined;
      try {
        portico = await startPortico(porticoEnv(PORT, dataDir));
        const en = await seedAccount(portico.url, 'en');
        const es = await seedAccount(portico.url, 'es');
        await portico.stop();
        portico = undefined;
        await checkedInDataDir(dataDir, [en, es]);
        portico = await startPortico(porticoEnv(PORT, dataDir));
        await use({ url: portico.url, seeds: { en, es } });
      } finally {
        await portico?.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
});

async function signedInPage(browser: Browser, url: string, lang: TLang, user: TE2EUser) {
  const context = await browser.newContext({
    baseURL: url,
    locale: lang,
    viewport: WIDTHS.desktop,
  });
  await context.addInitScript((l) => window.localStorage.setItem('i18nextLng', l), lang);
  const page = await context.newPage();
  const token = (await (await page.request.get('/api/csrf-token')).json()) as { token: string };
  const login = await page.request.post('/api/login', {
    headers: { 'X-CSRF-Token': token.token },
    data: { identifier: user.username, password: user.password },
  });
  expect(login.status()).toBe(200);
  return { context, page };
}

for (const lang of ['en', 'es'] as const) {
  app(
    `${lang}: list, add with a generated key, server page, forget key, delete refused while in use`,
    async ({ browser, serversApp }) => {
      const seed = serversApp.seeds[lang];
      const t = (key: string, values?: Record<string, string | number>) => text(lang, key, values);
      const { context, page } = await signedInPage(browser, serversApp.url, lang, seed.user);

      // The list, from the user's menu.
      await page.goto('/home');
      await page.getByTestId('user-menu').click();
      await page.getByRole('menuitem', { name: t('header.servers') }).click();
      await expect(page).toHaveURL(/\/servers$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('servers.title'));
      const row = page.getByTestId('server-row').filter({ hasText: seed.serverName });
      await expect(row).toContainText('198.***.***.10');
      await expect(row).not.toContainText(HOST);
      await expect(row).toContainText(t('servers.proxyCount_one', { count: 1 }));
      await expect(row).toContainText(t('servers.status.unchecked'));
      await screenshotScreen(page, 'servers', `list-${lang}`);
      await page.setViewportSize(WIDTHS.phone);
      const card = page.getByTestId('server-card').filter({ hasText: seed.serverName });
      await expect(card).toBeVisible();
      await expectActionsInView(page, card);
      await page.setViewportSize(WIDTHS.desktop);

      // Add a server with a key Portico generates: its public key is shown, with the command.
      await page.getByTestId('server-add').click();
      const dialog = page.getByTestId('server-dialog');
      await dialog.getByLabel(t('servers.form.name'), { exact: true }).fill(`gen-${lang}`);
      await dialog.getByLabel(t('servers.form.host'), { exact: true }).fill('203.0.113.20');
      await dialog.getByLabel(t('servers.form.username'), { exact: true }).fill('deploy');
      await dialog.getByLabel(t('servers.form.login'), { exact: true }).selectOption('generate');
      const saved = page.waitForResponse(
        (r) => r.url().endsWith('/api/ssh-servers') && r.request().method() === 'POST',
      );
      await dialog.getByTestId('server-save').click();
      const answer = await saved;
      expect(answer.status(), await answer.text()).toBe(201);
      await expect(dialog.getByTestId('public-key')).toHaveText(
        /^ssh-ed25519 AAAA\S+ portico-\w+$/,
      );
      const publicKey = await dialog.getByTestId('public-key').innerText();
      await expect(dialog.getByTestId('authorize-command')).toContainText(`echo '${publicKey}'`);
      await expect(dialog).toContainText(t('servers.generated.command', { user: 'deploy' }));
      await screenshotScreen(page, 'servers', `generated-key-${lang}`);
      await dialog.getByTestId('server-generated-done').click();
      const added = page.getByTestId('server-row').filter({ hasText: `gen-${lang}` });
      await expect(added).toContainText(t('servers.auth.key'));

      // The seeded server's page: no facts yet, its proxy linked, the pinned key.
      await row.getByTestId('server-details').click();
      await expect(page).toHaveURL(new RegExp(`/servers/${seed.serverId}$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(seed.serverName);
      await expect(page.getByTestId('server-target')).toHaveText(`root@${HOST}:22`);
      await expect(page.getByTestId('server-no-facts')).toHaveText(t('servers.page.noFacts'));
      await expect(page.getByTestId('server-proxies').getByRole('link')).toHaveAttribute(
        'href',
        /\/proxy-details\//,
      );
      await expect(page.getByTestId('server-proxies')).toContainText(seed.proxyDomain);
      await expect(page.getByTestId('server-host-key')).toHaveText(FINGERPRINT);
      await expect(page.getByTestId('server-proxy-total')).toHaveText('(1)');
      await screenshotScreen(page, 'servers', `server-page-${lang}`);

      // Check all certificates: a background run, shown as it goes; its proxy has no
      // certificate yet, so it is refused, saying why; the buttons wait while it runs.
      await page.getByTestId('server-check-certificates').click();
      const run = page.getByTestId('server-run');
      await expect(run).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
      await expect(page.getByTestId('server-run-state')).toHaveText(
        t('servers.page.run.state.done'),
      );
      await expect(page.getByTestId('server-run-counts')).toHaveText(
        t('servers.page.run.counts', { handled: 1, total: 1, done: 0, failed: 0, refused: 1 }),
      );
      const refusedRow = run.getByTestId('action-report-row');
      await expect(refusedRow).toHaveAttribute('data-outcome', 'refused');
      await expect(refusedRow).toContainText(seed.proxyDomain);
      await expect(refusedRow).toContainText(t('errors.certificateNotDeployed'));
      await expect(page.getByTestId('server-check-certificates')).toBeEnabled();
      await screenshotScreen(page, 'servers', `server-run-${lang}`);
      await page.setViewportSize(WIDTHS.phone);
      await expectActionsInView(page, run.locator('..'));
      await page.setViewportSize(WIDTHS.desktop);
      // After a reload the page reads the latest run again.
      await page.reload();
      await expect(page.getByTestId('server-run')).toHaveAttribute('data-state', 'done');
      // Its proxies are searched on the server, as home's list is.
      await page.getByTestId('server-proxy-search').fill('no-such-proxy');
      await expect(page.getByTestId('server-proxies-no-match')).toHaveText(
        t('servers.page.proxiesNoMatch'),
      );
      await expect(page).toHaveURL(/\?q=no-such-proxy$/);
      await page.getByTestId('server-proxy-search').fill('');
      await expect(page.getByTestId('server-proxies')).toContainText(seed.proxyDomain);

      // Forget key: asks first, then the key is gone and the next contact pins again.
      await page.getByTestId('server-forget-key').click();
      const confirm = page.getByTestId('server-forget-key-dialog');
      await expect(confirm).toContainText(t('servers.page.forgetTitle'));
      await expect(confirm).toContainText(FINGERPRINT);
      await screenshotScreen(page, 'servers', `forget-key-${lang}`);
      await confirm.getByTestId('server-forget-key-confirm').click();
      await expectToast(page, t('servers.page.forgotten'));
      await expect(page.getByTestId('server-host-key-none')).toHaveText(
        t('servers.page.hostKeyNotPinned'),
      );
      const read = await api(page.request, 'GET', `/api/ssh-servers/${seed.serverId}`);
      expect(read.json.hostKeyFingerprint).toBeNull();

      // Delete while its proxy uses it: refused with the count, "remove their sites too" offered.
      await page.getByTestId('server-delete').click();
      const remove = page.getByTestId('server-delete-dialog');
      await remove.getByTestId('server-delete-confirm').click();
      await expect(remove.getByTestId('server-in-use')).toHaveText(
        t('errors.sshServerInUse', { count: 1 }),
      );
      await expect(remove.getByTestId('server-delete-confirm')).toBeDisabled();
      await remove.getByText(t('servers.deleteDialog.withSites')).click();
      await expect(remove.getByTestId('server-delete-confirm')).toBeEnabled();
      await expect(remove.getByTestId('server-delete-confirm')).toHaveText(
        t('servers.deleteDialog.confirmWithSites'),
      );
      await screenshotScreen(page, 'servers', `delete-in-use-${lang}`);
      await remove.getByTestId('server-delete-cancel').click();
      expect((await api(page.request, 'GET', `/api/ssh-servers/${seed.serverId}`)).status).toBe(
        200,
      );

      // The wizard: choosing the busy server warns of apache2 on port 80, and Next stays open.
      await page.goto('/proxy-wizard');
      await page.getByRole('radio', { name: new RegExp(seed.busyName) }).check();
      const warnings = page.getByTestId('wizard-server-warnings');
      await expect(warnings).toContainText(t('servers.wizard.warn.title', { name: seed.busyName }));
      await expect(page.getByTestId('wizard-server-warning')).toHaveText([
        t('servers.wizard.warn.portHeld', { port: 80, program: 'apache2' }),
      ]);
      await expect(page.getByTestId('wizard-next')).toBeEnabled();
      await screenshotScreen(page, 'servers', `wizard-warnings-${lang}`);
      await page.getByRole('radio', { name: new RegExp(seed.serverName) }).check();
      await expect(warnings).toHaveCount(0);

      // A new server that takes a key: the servers page's dialog, with what was typed.
      await page.getByRole('radio', { name: t('servers.wizard.new') }).check();
      await page.locator('#wizard-server-ip').fill('203.0.113.30');
      await page.locator('#wizard-ssh-user').fill('deploy');
      await page.getByTestId('wizard-add-key-server').click();
      const keyDialog = page.getByTestId('server-dialog');
      await expect(keyDialog.getByLabel(t('servers.form.host'), { exact: true })).toHaveValue(
        '203.0.113.30',
      );
      await expect(keyDialog.getByLabel(t('servers.form.login'), { exact: true })).toHaveValue(
        'generate',
      );
      await keyDialog.getByTestId('server-save').click();
      await expect(keyDialog.getByTestId('public-key')).toHaveText(
        /^ssh-ed25519 AAAA\S+ portico-\w+$/,
      );
      await screenshotScreen(page, 'servers', `wizard-key-${lang}`);
      await keyDialog.getByTestId('server-generated-done').click();
      await expect(page.getByRole('radio', { name: /deploy@203\.0\.113\.30/ })).toBeChecked();
      await expect(page.locator('#wizard-ssh-password')).toHaveCount(0);
      await context.close();
    },
  );
}
