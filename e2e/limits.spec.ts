import type { Browser, Page } from '@playwright/test';
import { expect, type TAdminApp, test } from './fixtures/admin-app';
import { signIn } from './fixtures/auth';
import { type TLang, text } from './fixtures/catalog';
import { chooseLanguage, expectToast } from './fixtures/ui';
import { uniqueUser } from './fixtures/users';
import { capture } from './fixtures/wizard';

// Per-account limits (docs/PRODUCT.md#limits) on a Portico of its own: the admin sets one
// account's webhook limit to 0 in the Users screen's Limits dialog; that user's settings page
// then shows the refusal in their language; the admin raises it and the same save goes through.
const AREA = 'limits';
// A public address literal: judged without a name lookup, never called by a save.
const WEBHOOK = 'https://93.184.215.14/hooks/portico';

async function userPage(browser: Browser, app: TAdminApp) {
  const context = await browser.newContext({ baseURL: app.url, locale: 'fr-FR' });
  const page = await context.newPage();
  const user = uniqueUser('lim');
  await signIn(page, user, 'register');
  return { page, user };
}

async function setWebhookLimit(
  page: Page,
  lang: TLang,
  username: string,
  value: string,
  before: number,
) {
  await page.goto('/admin/users');
  const row = page.getByTestId('admin-user').filter({ hasText: username });
  await row.getByTestId('admin-user-limits').click();
  const dialog = page.getByTestId('admin-limits-dialog');
  await expect(dialog).toContainText(text(lang, 'admin.limits.title', { username }));
  await expect(dialog).toContainText(text(lang, 'admin.limits.used', { used: 0, limit: before }));
  await dialog.getByTestId('admin-limit-webhooks').fill(value);
  return dialog;
}

async function saveWebhook(page: Page) {
  await page.goto('/settings');
  await page.locator('#notifications-webhook').fill(WEBHOOK);
  await page.getByTestId('notifications-save').click();
}

for (const lang of ['es', 'en'] as const) {
  test(`${lang}: an admin sets one account's limit; at it the user is told why; raised, it passes`, async ({
    page,
    browser,
    adminApp,
  }) => {
    await signIn(page, adminApp.admin, 'login');
    if (lang === 'en') {
      await page.goto('/');
      await chooseLanguage(page, 'es', 'en');
    }
    const member = await userPage(browser, adminApp);
    if (lang === 'en') {
      await member.page.goto('/');
      await chooseLanguage(member.page, 'es', 'en');
    }

    // A bad value is refused on the spot, and nothing is sent.
    const dialog = await setWebhookLimit(page, lang, member.user.username, '-1', 20);
    await dialog.getByTestId('admin-limits-save').click();
    await expect(dialog).toContainText(text(lang, 'validation.limit.number'));
    await dialog.getByTestId('admin-limit-webhooks').fill('0');
    await expect(dialog).not.toContainText(text(lang, 'validation.limit.number'));
    await capture(page, AREA, `dialog-${lang}`);
    await dialog.getByTestId('admin-limits-save').click();
    await expectToast(page, text(lang, 'admin.limits.saved', { username: member.user.username }));

    await saveWebhook(member.page);
    await expectToast(member.page, text(lang, 'settings.notifications.failed'));
    await expect(member.page.locator('#notifications-webhook-error')).toHaveText(
      text(lang, 'errors.limitReached.webhooks', { limit: 0 }),
    );
    await capture(member.page, AREA, `refused-${lang}`);

    // Raised to 1: the same save goes through.
    await setWebhookLimit(page, lang, member.user.username, '1', 0);
    await page.getByTestId('admin-limits-save').click();
    await expectToast(page, text(lang, 'admin.limits.saved', { username: member.user.username }));
    await saveWebhook(member.page);
    await expectToast(member.page, text(lang, 'settings.notifications.saved'));
    await expect(member.page.getByTestId('notifications-webhook-stored')).toBeVisible();

    // The audit log says who changed it.
    await page.goto('/admin/audit');
    const entry = page
      .getByTestId('audit-entry')
      .filter({ hasText: text(lang, 'admin.audit.actions.admin_user_limits') })
      .first();
    await expect(entry).toContainText(text(lang, 'admin.audit.fields.webhooks'));
    await member.page.context().close();
  });
}
