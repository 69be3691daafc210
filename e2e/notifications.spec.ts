import { type Page, test as plain } from '@playwright/test';
import { codeInMail } from '../apps/server/test/support/smtp-sink';
import { signIn } from './fixtures/auth';
import { expectAccessible } from './fixtures/axe';
import { type TLang, text } from './fixtures/catalog';
import { expect, type TMailApp, test } from './fixtures/mail-app';
import { screenshotScreen } from './fixtures/screenshots';
import { expectToast } from './fixtures/ui';
import { uniqueUser } from './fixtures/users';

// Settings → Notifications in the browser, in Spanish and English: one state and one message
// (issue 36) on the shared Portico, which has no SMTP; and an alert address verified with the
// code a real SMTP sink received (issue 35), on a Portico of its own that sends e-mail.

const say = (lang: TLang, key: string, values: Record<string, string | number> = {}) =>
  text(lang, `settings.notifications.${key}`, values);

async function openNotifications(page: Page, lang: TLang) {
  await page.goto('/settings#notifications');
  const section = page.getByTestId('settings-notifications');
  await expect(section.getByRole('heading', { name: say(lang, 'title') })).toBeVisible();
  return section;
}

// One account on the shared Portico for both languages (its register limit is shared by every spec).
const sharedUser = uniqueUser('nosmtp');
let sharedUserExists = false;

async function withoutSmtp(page: Page, lang: TLang) {
  await signIn(page, sharedUser, sharedUserExists ? 'login' : 'register');
  sharedUserExists = true;
  const section = await openNotifications(page, lang);
  // E-mail is on by default, but this Portico cannot send it: shown unticked and unavailable.
  const email = section.getByRole('checkbox', { name: say(lang, 'emailLabel') });
  await expect(email).not.toBeChecked();
  await expect(email).toBeDisabled();
  await expect(section.getByText(say(lang, 'emailUnavailable'))).toBeVisible();
  const button = section.getByTestId('notifications-test');
  await expect(button).toBeDisabled();
  await expect(section.getByTestId('notifications-test-nowhere')).toHaveText(
    say(lang, 'testNowhere.noSmtp'),
  );
  await expect(page.getByText(say(lang, 'testSent'))).toHaveCount(0);
  await expectAccessible(page, `notifications-no-smtp-${lang}`);
  await screenshotScreen(page, 'notifications', `no-smtp-${lang}`);
}

async function verifyAddress(page: Page, lang: TLang, { smtp }: TMailApp) {
  const user = uniqueUser(`mail${lang}`);
  await signIn(page, user, 'register');
  const section = await openNotifications(page, lang);
  await expect(section.getByRole('checkbox', { name: say(lang, 'emailLabel') })).toBeChecked();
  const panel = section.getByTestId('notifications-email-verification');
  await expect(panel).toContainText(say(lang, 'emailUnverified', { email: user.email }));
  await expect(section.getByTestId('notifications-test')).toBeDisabled();
  await expect(section.getByTestId('notifications-test-nowhere')).toHaveText(
    say(lang, 'testNowhere.unverified'),
  );
  await screenshotScreen(page, 'notifications', `unverified-${lang}`);

  const before = smtp.messages.length;
  await panel.getByTestId('notifications-email-send-code').click();
  await expectToast(page, say(lang, 'codeSentToast', { email: user.email }));
  const sent = say(lang, 'emailCodeSent', { email: user.email, time: 'TIME' });
  const escaped = sent.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('TIME', '\\d{1,2}:\\d\\d');
  await expect(panel).toContainText(new RegExp(escaped));
  await smtp.waitFor(before + 1);
  const mail = smtp.messages.slice(before).find((m) => m.to.includes(user.email))!;
  const code = codeInMail(mail);
  const field = panel.getByLabel(say(lang, 'codeLabel'));
  await field.fill(code === '000000' ? '111111' : '000000');
  await panel.getByTestId('notifications-email-verify').click();
  await expect(panel.locator('#notifications-email-code-error')).toHaveText(
    text(lang, 'errors.emailCodeInvalid', { left: 4 }),
  );
  await expectAccessible(page, `notifications-code-${lang}`);
  await screenshotScreen(page, 'notifications', `code-sent-${lang}`);

  await field.fill(code);
  await field.press('Enter');
  await expect(section.getByTestId('notifications-email-verified')).toHaveText(
    say(lang, 'emailVerified', { email: user.email }),
  );
  await expect(panel).toHaveCount(0);
  const button = section.getByTestId('notifications-test');
  await expect(button).toBeEnabled();
  await expect(section.getByTestId('notifications-test-nowhere')).toHaveCount(0);
  await button.click();
  await expect(section.getByTestId('notifications-test-result')).toHaveText(
    say(lang, 'resultEmail', { result: say(lang, 'delivered') }),
  );
  await expectToast(page, say(lang, 'testSent'));
  await smtp.waitFor(before + 2);
  expect(smtp.messages.slice(before).filter((m) => m.to.includes(user.email))).toHaveLength(2);
  await screenshotScreen(page, 'notifications', `verified-${lang}`);
}

plain('without SMTP, in Spanish: e-mail unavailable, the test off and why', async ({ page }) => {
  await withoutSmtp(page, 'es');
});

test('an alert address verified with the mailed code, in Spanish', async ({ page, mailApp }) => {
  await verifyAddress(page, 'es', mailApp);
});

plain.describe('in English', () => {
  plain.use({ locale: 'en-US' });
  plain('without SMTP, in English: e-mail unavailable, the test off and why', async ({ page }) => {
    await withoutSmtp(page, 'en');
  });
});

test.describe('in English, with e-mail', () => {
  test.use({ locale: 'en-US' });
  test('an alert address verified with the mailed code, in English', async ({ page, mailApp }) => {
    await verifyAddress(page, 'en', mailApp);
  });
});
