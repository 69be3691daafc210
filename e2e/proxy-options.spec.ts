import { expect, test } from '@playwright/test';
import { signIn } from './fixtures/auth';
import { text } from './fixtures/catalog';
import { saveUndeployedProxy } from './fixtures/lab-api';
import { chooseLanguage, expectToast } from './fixtures/ui';
import { uniqueUser } from './fixtures/users';
import { capture } from './fixtures/wizard';

// A proxy's options (docs/PRODUCT.md#proxy-options) edited in the edit dialog: a bad network is
// refused on its field in the page's language, the fixed options are saved, and the details page
// shows them, with the basic-auth user's password never shown again.
const AREA = 'proxy-options';

for (const lang of ['es', 'en'] as const) {
  test(`${lang}: edit options, see them saved on the details page`, async ({ page }) => {
    await signIn(page, uniqueUser('opt'), 'register');
    const domain = `opt-${lang}-${Date.now().toString(36)}.example.test`;
    const id = await saveUndeployedProxy(page.request, domain, 'http://10.0.0.5:8080');
    await page.goto('/');
    if (lang === 'en') await chooseLanguage(page, 'es', 'en');
    await page.getByTestId('proxy-edit').first().click();
    const dialog = page.getByTestId('edit-proxy-dialog');
    await dialog.getByTestId('edit-toggle').click();
    await dialog
      .getByTestId('edit-upstreams')
      .fill('http://10.0.0.5:8080\nhttp://10.0.0.6:8080 weight=2');
    await dialog.getByLabel(text(lang, 'options.hsts')).check();
    await dialog.getByLabel(text(lang, 'options.hstsPreload')).check();
    await expect(dialog.getByTestId('edit-preload-warning')).toHaveText(
      text(lang, 'options.preloadWarning'),
    );
    await dialog.getByTestId('edit-maxFails').fill('3');
    await dialog.getByTestId('edit-failTimeout').fill('30');
    await dialog.getByTestId('edit-timeoutConnect').fill('100');
    await dialog.getByTestId('edit-timeoutRead').fill('600');
    await dialog.getByTestId('edit-deny').fill('10.0.0.1/8');
    await dialog.getByTestId('edit-add-user').click();
    await dialog.getByTestId('edit-user-0').fill('ana');
    await dialog.getByTestId('edit-password-0').fill('a-long-password');
    await page.getByTestId('edit-proxy-save').click();
    await expect(dialog.locator('#edit-deny-error')).toHaveText(
      text(lang, 'proxyOptions.invalid.cidrHostBits'),
    );
    await capture(page, AREA, `dialog-refused-${lang}`);
    // Connect is at most 75 s: refused on its own field, in the page's language.
    await expect(dialog.locator('#edit-timeoutConnect-error')).toHaveText(
      text(lang, 'proxyOptions.invalid.seconds'),
    );
    await dialog.getByTestId('edit-timeoutConnect').scrollIntoViewIfNeeded();
    await capture(page, AREA, `dialog-tuning-refused-${lang}`);

    await dialog.getByTestId('edit-timeoutConnect').fill('5');
    await dialog.getByTestId('edit-deny').fill('10.0.0.0/8');
    await page.getByTestId('edit-proxy-save').click();
    await expectToast(page, text(lang, 'proxies.edit.success'), domain);

    await page.goto(`/proxy-details/${id}`);
    const section = page.getByTestId('options-section');
    await expect(section.getByTestId('options-upstreams')).toHaveText(
      'http://10.0.0.5:8080, http://10.0.0.6:8080 weight=2',
    );
    await expect(section.getByTestId('options-hsts')).toHaveText('max-age=31536000; preload');
    await expect(section.getByTestId('options-access')).toHaveText('deny 10.0.0.0/8');
    await expect(section.getByTestId('options-health')).toHaveText(
      'max_fails=3, fail_timeout=30 s',
    );
    await expect(section.getByTestId('options-timeouts')).toHaveText(
      `${text(lang, 'options.view.connect', { seconds: 5 })}, ${text(lang, 'options.view.read', { seconds: 600 })}`,
    );
    await expect(section.getByTestId('options-basicAuth')).toHaveText(
      text(lang, 'options.view.users', { count: 1, names: 'ana' }),
    );
    await expect(page.locator('body')).not.toContainText('a-long-password');
    await capture(page, AREA, `details-${lang}`);

    // Opened again, the user is there with an empty password field that keeps the saved one.
    await page.goto('/');
    await page.getByTestId('proxy-edit').first().click();
    await dialog.getByTestId('edit-toggle').click();
    await expect(dialog.getByTestId('edit-user-0')).toHaveValue('ana');
    await expect(dialog.getByTestId('edit-maxFails')).toHaveValue('3');
    await expect(dialog.getByTestId('edit-timeoutConnect')).toHaveValue('5');
    await expect(dialog.getByTestId('edit-timeoutSend')).toHaveValue('');
    await expect(dialog.getByTestId('edit-password-0')).toHaveValue('');
    await expect(dialog.getByTestId('edit-password-0')).toHaveAttribute(
      'placeholder',
      text(lang, 'options.passwordKept'),
    );
    await capture(page, AREA, `dialog-${lang}`);
  });
}
