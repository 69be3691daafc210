import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { signIn } from './fixtures/auth';
import { expectAccessible } from './fixtures/axe';
import { type TLang, text } from './fixtures/catalog';
import { screenshotScreen } from './fixtures/screenshots';
import { OPEN_URL } from './fixtures/servers';
import { chooseLanguage, expectToast } from './fixtures/ui';
import { uniqueUser } from './fixtures/users';

// Export and import on the settings page (docs/PRODUCT.md#export-and-import), in Spanish and in
// English: one account downloads its saved server and proxy with a passphrase; another, in a
// browser of its own, is refused with a wrong passphrase (nothing added), then while the first
// still holds the domain, then, once the first deleted its proxy, imports the file and finds the
// server with its password and the proxy on it. axe and screenshots at 1280 and 390 px.
const AREA = 'settings';
const PASSPHRASE = 'a long passphrase for the move';

async function write(request: APIRequestContext, url: string, data: unknown) {
  const { token } = await (await request.get('/api/csrf-token')).json();
  const response = await request.post(url, { headers: { 'X-CSRF-Token': token }, data });
  expect(response.ok(), `${url}: ${await response.text()}`).toBe(true);
  return response.json();
}

async function openTransfer(page: Page, lang: TLang) {
  await page.goto('/');
  if (lang === 'en') await chooseLanguage(page, 'es', 'en');
  await page.goto('/settings#transfer');
  await expect(page.getByTestId('settings-transfer')).toContainText(
    text(lang, 'settings.transfer.title'),
  );
}

for (const lang of ['es', 'en'] as const) {
  test(`${lang}: an account's servers and proxies move to another account through a file`, async ({
    page,
    browser,
  }) => {
    await signIn(page, uniqueUser(`exp${lang}`), 'register');
    const server = await write(page.request, '/api/ssh-servers', {
      name: 'web-1',
      host: '203.0.113.40',
      username: 'deploy',
      password: 'Server-Pa55word-moved',
    });
    const domain = `moved-${lang}-${Date.now()}.example.com`;
    const proxy = await write(page.request, '/api/proxy-configurations', {
      sshServerId: server.id,
      domain,
      email: 'owner@example.com',
      targetServer: 'http://10.0.0.5:8080',
    });

    await openTransfer(page, lang);
    const section = page.getByTestId('settings-transfer');
    await section.locator('#transfer-export-passphrase').fill('short');
    await expect(section).toContainText(text(lang, 'validation.import.passphraseShort'));
    await section.locator('#transfer-export-passphrase').fill(PASSPHRASE);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('transfer-export').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^portico-export-\d{4}-\d{2}-\d{2}\.json$/);
    const file = await download.path();
    await expectToast(page, text(lang, 'settings.transfer.exported'));
    await expectAccessible(page, `settings transfer (${lang})`);
    await section.scrollIntoViewIfNeeded();
    await screenshotScreen(page, AREA, `transfer-${lang}`);

    const context = await browser.newContext({ baseURL: OPEN_URL });
    const other = await context.newPage();
    await signIn(other, uniqueUser(`imp${lang}`), 'register');
    await openTransfer(other, lang);
    const target = other.getByTestId('settings-transfer');
    await target.locator('#transfer-import-file').setInputFiles(file);
    await target.locator('#transfer-import-passphrase').fill('not the passphrase at all');
    await other.getByTestId('transfer-import').click();
    await expectToast(
      other,
      text(lang, 'settings.transfer.importFailed'),
      text(lang, 'errors.importWrongPassphrase'),
    );
    expect((await (await other.request.get('/api/ssh-servers')).json()).servers).toEqual([]);

    // Domains are unique on an instance: while the first account holds it, nothing comes in.
    await target.locator('#transfer-import-passphrase').fill(PASSPHRASE);
    await other.getByTestId('transfer-import').click();
    await expectToast(
      other,
      text(lang, 'settings.transfer.importFailed'),
      text(lang, 'errors.importDomainsTaken', { count: 1, domains: domain }),
    );
    const { token } = await (await page.request.get('/api/csrf-token')).json();
    const removed = await page.request.delete(
      `/api/proxy-configurations/${proxy.id}?removeFromServer=false`,
      { headers: { 'X-CSRF-Token': token } },
    );
    expect(removed.status()).toBe(200);

    await other.getByTestId('transfer-import').click();
    await expectToast(
      other,
      text(lang, 'settings.transfer.imported'),
      text(lang, 'settings.transfer.importedCounts', { servers: 1, proxies: 1 }),
    );
    await screenshotScreen(other, AREA, `transfer-imported-${lang}`);
    const servers = (await (await other.request.get('/api/ssh-servers')).json()).servers;
    expect(servers).toMatchObject([
      { name: 'web-1', host: '203.0.113.40', hasPassword: true, proxyCount: 1 },
    ]);
    await context.close();
  });
}
