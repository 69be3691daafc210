import { readFileSync } from 'node:fs';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { totpCode, totpStep } from '../apps/server/src/lib/totp';
import { createUser } from './fixtures/auth';
import { expectAccessible } from './fixtures/axe';
import { type TLang, text } from './fixtures/catalog';
import { screenshotScreen } from './fixtures/screenshots';
import { OPEN_URL } from './fixtures/servers';
import {
  dismissToast,
  expectLanding,
  expectSignedIn,
  expectToast,
  logout,
  submitLogin,
  toast,
} from './fixtures/ui';
import { type TE2EUser, uniqueUser } from './fixtures/users';

// The settings page in the browser, in Spanish and in English, from the header's menu;
// another session seen and ended (a second browser context, refused at once); an API token
// created and used from this test with fetch, then revoked; two-factor set up by reading the
// secret shown as text, then signing in with a code and with a recovery code. axe and
// screenshots at 1280 and 390 px on each screen.

/** Codes as an authenticator app gives them, each for a later time step than the last one used. */
function authenticator(secret: string) {
  let last = -1;
  return async (): Promise<string> => {
    const step = Math.max(last + 1, totpStep(Date.now()));
    // The server takes one step either side of now: wait if we ran ahead of the clock.
    while (step > totpStep(Date.now()) + 1) await new Promise((r) => setTimeout(r, 1_000));
    last = step;
    return totpCode(secret, step * 30_000);
  };
}

async function openSettings(page: Page, lang: TLang) {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: text(lang, 'header.settings') }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(lang, 'settings.title'));
}

/** Signs a second browser in as the user, through the API; returns its page on /home. */
async function secondBrowser(browser: Browser, user: TE2EUser) {
  const context = await browser.newContext({
    baseURL: OPEN_URL,
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  });
  const page = await context.newPage();
  const { token } = await (await page.request.get('/api/csrf-token')).json();
  const login = await page.request.post('/api/login', {
    headers: { 'X-CSRF-Token': token },
    data: { identifier: user.username, password: user.password },
  });
  expect(login.status()).toBe(200);
  await page.goto('/home');
  await expect(page.getByTestId('header-username')).toHaveText(user.username);
  return { context, page };
}

async function journey(page: Page, browser: Browser, request: APIRequestContext, lang: TLang) {
  const user = uniqueUser(lang === 'es' ? 'sol' : 'sam');
  await createUser(request, user);
  await page.goto('/');
  await submitLogin(page, lang, user.username, user.password);
  await expectSignedIn(page, lang, user);
  await dismissToast(page, lang);

  await test.step('the settings page, from the user menu', async () => {
    await openSettings(page, lang);
    for (const id of ['profile', 'password', 'two-factor', 'tokens', 'sessions']) {
      await expect(page.getByTestId(`settings-${id}`)).toBeVisible();
    }
    // A new password also revokes the API tokens unless unticked.
    await expect(
      page.getByRole('checkbox', { name: text(lang, 'settings.tokens.revokeAll') }),
    ).toHaveAttribute('aria-checked', 'true');
    await page.locator('#profile-first-name').fill('Marisol');
    await page.getByTestId('profile-save').click();
    await expectToast(page, text(lang, 'settings.profile.saved'));
    await dismissToast(page, lang);
    await expectAccessible(page, `settings-${lang}`);
    await screenshotScreen(page, 'settings', `settings-${lang}`);
  });

  await test.step('another session: listed with its browser, ended, refused at once', async () => {
    const other = await secondBrowser(browser, user);
    await page.reload();
    const rows = page.getByTestId('session-row');
    // This browser, the other one, and the API client that registered the account.
    await expect(rows).toHaveCount(3);
    const current = page.locator('[data-testid="session-row"][data-current="true"]');
    await expect(current).toContainText(text(lang, 'settings.sessions.thisOne'));
    const theirs = rows.filter({ hasText: 'Firefox 128 · Linux' });
    await expect(theirs).toHaveCount(1);
    await expectAccessible(page, `settings-sessions-${lang}`);
    await theirs.getByTestId('session-end').click();
    await expectToast(page, text(lang, 'settings.sessions.ended'));
    await expect(rows).toHaveCount(2);
    await expect(theirs).toHaveCount(0);
    // The other browser is out: its next request is refused, and the app shows it signed out.
    expect((await other.page.request.get('/api/auth/user')).status()).toBe(401);
    await other.page.goto('/');
    await expectLanding(other.page, lang);
    await other.context.close();
  });

  /** The token form sent, then the password asked for in its dialog. */
  async function createToken(name: string) {
    await page.locator('#token-name').fill(name);
    await page.locator('#token-scope').selectOption('manage');
    await page.getByTestId('token-create').click();
    const dialog = page.getByTestId('token-reauth');
    await expect(dialog).toContainText(text(lang, 'settings.tokens.confirmTitle'));
    await dialog.locator('#token-reauth-password').fill(user.password);
    return dialog;
  }

  await test.step('an API token: asked the password, shown once, used with fetch, revoked', async () => {
    const dialog = await createToken(`ci ${lang}`);
    await expectAccessible(page, `settings-token-reauth-${lang}`);
    await screenshotScreen(page, 'settings', `token-reauth-${lang}`);
    await dialog.getByRole('button', { name: text(lang, 'settings.tokens.create') }).click();
    const value = (await page.getByTestId('token-value').textContent())!.trim();
    expect(value).toMatch(/^ptk_[A-Za-z0-9_-]{43}$/);
    await expectAccessible(page, `settings-token-created-${lang}`);
    await screenshotScreen(page, 'settings', `token-created-${lang}`);
    await page.getByTestId('token-created-done').click();
    await expect(page.getByTestId('token-value')).toHaveCount(0);
    await expect(page.getByTestId('settings-tokens')).not.toContainText(value);

    const bearer = { authorization: `Bearer ${value}`, 'content-type': 'application/json' };
    const listed = await fetch(`${OPEN_URL}/api/user/proxy-configurations`, { headers: bearer });
    expect(listed.status).toBe(200);
    // A write without any CSRF token: the token is enough.
    const made = await fetch(`${OPEN_URL}/api/proxy-configurations`, {
      method: 'POST',
      headers: bearer,
      body: JSON.stringify({
        domain: `${user.username.replaceAll('_', '-')}.example.com`,
        serverIp: '127.0.0.1',
        sshPort: 1,
        sshUser: 'root',
        sshPassword: 'Token-made-1',
        email: 'ops@example.com',
        targetServer: 'http://10.0.0.5:8080',
      }),
    });
    expect(made.status, await made.clone().text()).toBe(200);
    // Not the account: a token cannot list or make tokens.
    expect((await fetch(`${OPEN_URL}/api/account/tokens`, { headers: bearer })).status).toBe(403);

    await page.reload();
    await expect(page.getByTestId('token-last-used')).not.toHaveText(
      text(lang, 'settings.tokens.never'),
    );
    await page.getByTestId('token-revoke').click();
    await page.getByTestId('token-revoke-confirm').click();
    await expectToast(page, text(lang, 'settings.tokens.revoked', { name: `ci ${lang}` }));
    await expect(page.getByTestId('token-row')).toHaveCount(0);
    const refused = await fetch(`${OPEN_URL}/api/user/proxy-configurations`, { headers: bearer });
    expect(refused.status).toBe(401);
    await dismissToast(page, lang);
  });

  await test.step('a token revoked while shown: its copy-it-now box goes with it', async () => {
    const dialog = await createToken(`short ${lang}`);
    await dialog.getByRole('button', { name: text(lang, 'settings.tokens.create') }).click();
    await expect(page.getByTestId('token-created')).toBeVisible();
    await page.getByTestId('token-revoke').click();
    await page.getByTestId('token-revoke-confirm').click();
    await expect(page.getByTestId('token-row')).toHaveCount(0);
    await expect(page.getByTestId('token-created')).toHaveCount(0);
    await expect(page.getByTestId('settings-tokens')).toContainText(
      text(lang, 'settings.tokens.empty'),
    );
    await dismissToast(page, lang);
  });

  let recoveryCodes: string[] = [];
  let nextCode: () => Promise<string> = async () => '';
  await test.step('two-factor: set up from the secret shown as text', async () => {
    // One click: the QR code comes at once.
    await page.getByTestId('two-factor-set-up').click();
    await expect(page.getByTestId('two-factor-qr')).toBeVisible();
    // What a person would type into the app: the text shown, without its spaces.
    const shown = (await page.getByTestId('two-factor-secret').textContent())!;
    const secret = shown.replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    nextCode = authenticator(secret);
    await expect(page.getByTestId('two-factor-revoke-tokens')).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await expectAccessible(page, `settings-two-factor-setup-${lang}`);
    await screenshotScreen(page, 'settings', `two-factor-setup-${lang}`);
    await page.locator('#two-factor-code').fill(await nextCode());
    await page.getByTestId('two-factor-confirm').click();
    await expect(page.getByTestId('recovery-code')).toHaveCount(10);
    recoveryCodes = (await page.getByTestId('recovery-code').allTextContents()).map((c) =>
      c.trim(),
    );
    const download = page.waitForEvent('download');
    await page.getByTestId('recovery-codes-download').click();
    const file = readFileSync((await (await download).path())!, 'utf8');
    for (const code of recoveryCodes) expect(file).toContain(code);
    await expectAccessible(page, `settings-recovery-codes-${lang}`);
    await screenshotScreen(page, 'settings', `recovery-codes-${lang}`);
    await page.getByTestId('recovery-codes-done').click();
    await expect(page.getByTestId('two-factor-state')).toHaveText(
      text(lang, 'settings.twoFactor.on'),
    );
    await expect(page.getByTestId('recovery-codes-left')).toHaveText(
      text(lang, 'settings.twoFactor.codesLeft_other', { count: 10 }),
    );
    // The secret is not on the page any more, nor in any answer after the setup.
    await expect(page.getByTestId('settings-page')).not.toContainText(secret);
    await dismissToast(page, lang);
  });

  await test.step('sign out, then in with the password and a code', async () => {
    await logout(page, lang);
    await submitLogin(page, lang, user.username, user.password);
    await expect(page.getByTestId('two-factor-login')).toBeVisible();
    await expect(page.getByTestId('header-user')).toHaveCount(0);
    await dismissToast(page, lang);
    await expectAccessible(page, `login-two-factor-${lang}`);
    await screenshotScreen(page, 'settings', `login-two-factor-${lang}`);
    await page.locator('#login-code').fill('000000');
    await page
      .getByTestId('two-factor-login')
      .getByRole('button', { name: text(lang, 'landing.login.submit') })
      .click();
    await expect(page.locator('#login-code-error')).toHaveText(
      text(lang, 'errors.twoFactorInvalid'),
    );
    // Said on the field only: no toast over the submit button (on a phone it sat there).
    await expect(toast(page)).toHaveCount(0);
    await expect(page.locator('#login-code')).toBeFocused();
    await page.locator('#login-code').fill(await nextCode());
    await page
      .getByTestId('two-factor-login')
      .getByRole('button', { name: text(lang, 'landing.login.submit') })
      .click();
    await expectToast(page, text(lang, 'landing.login.success'));
    await expect(page.getByTestId('header-username')).toHaveText(user.username);
  });

  await test.step('sign out, then in with a recovery code, which is then used up', async () => {
    await dismissToast(page, lang);
    await logout(page, lang);
    await submitLogin(page, lang, user.username, user.password);
    await page.locator('#login-code').fill(recoveryCodes[0]!);
    await page
      .getByTestId('two-factor-login')
      .getByRole('button', { name: text(lang, 'landing.login.submit') })
      .click();
    await expect(page.getByTestId('header-username')).toHaveText(user.username);
    await dismissToast(page, lang);
    await openSettings(page, lang);
    await expect(page.getByTestId('recovery-codes-left')).toHaveText(
      text(lang, 'settings.twoFactor.codesLeft_other', { count: 9 }),
    );
  });
}

test('settings in Spanish: sessions, a token, two-factor sign-in', async ({
  page,
  browser,
  request,
}) => {
  await journey(page, browser, request, 'es');
});

test.describe('in English', () => {
  test.use({ locale: 'en-US' });
  test('settings in English: sessions, a token, two-factor sign-in', async ({
    page,
    browser,
    request,
  }) => {
    await journey(page, browser, request, 'en');
  });
});
