import { expect, test } from '@playwright/test';
import { createUser, signIn } from './fixtures/auth';
import { expectAccessible } from './fixtures/axe';
import { text } from './fixtures/catalog';
import { capturePng, screenshotScreen, WIDTHS } from './fixtures/screenshots';
import {
  chooseLanguage,
  dismissToast,
  expectLanding,
  expectSignedIn,
  expectToast,
  logout,
  submitLogin,
  submitRegister,
  toast,
} from './fixtures/ui';
import { uniqueUser } from './fixtures/users';

// The account journey in one browser context: register → logout → login by username → logout →
// login by e-mail → English and back. Each screen is checked with axe and photographed.
test('a visitor registers, logs out, logs in by username and e-mail, and switches language', async ({
  page,
}) => {
  const user = uniqueUser('ana');

  await test.step('first visit: the landing page in Spanish, the default', async () => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expectLanding(page, 'es');
    await expect(page.getByText(text('es', 'landing.description'))).toBeVisible();
    await expect(page.getByTestId('tab-login')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('contentinfo')).toContainText(
      text('es', 'landing.footer', { year: new Date().getFullYear() }),
    );
    await expectAccessible(page, 'landing-login-es');
    await screenshotScreen(page, 'auth', 'landing-login-es');
  });

  await test.step('register: signed in, welcome line and header show the user', async () => {
    await page.getByTestId('tab-register').click();
    await expect(page.locator('#register-password-hint')).toHaveText(
      text('es', 'validation.password.hint'),
    );
    await screenshotScreen(page, 'auth', 'landing-register-es');
    await submitRegister(page, 'es', { ...user, confirmPassword: user.password });
    await expectToast(
      page,
      text('es', 'landing.register.success'),
      text('es', 'landing.register.successDescription'),
    );
    await expectSignedIn(page, 'es', user);
    await expect(page.getByTestId('tab-login')).toHaveCount(0);
    await expectAccessible(page, 'home-es');
    await dismissToast(page, 'es');
    await screenshotScreen(page, 'home', 'home-es');

    await page.getByTestId('language-switcher').click();
    await expect(page.getByRole('menu')).toBeVisible();
    await expectAccessible(page, 'language-menu-es');
    await screenshotScreen(page, 'home', 'language-menu-es');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
  });

  await test.step('logout: toast, back at / on the landing page', async () => {
    await logout(page, 'es');
    // Signed out for real: a reload does not bring the session back.
    await page.reload();
    await expectLanding(page, 'es');
  });

  await test.step('login by username', async () => {
    await submitLogin(page, 'es', user.username, user.password);
    await expectToast(page, text('es', 'landing.login.success'));
    await expectSignedIn(page, 'es', user);
    await logout(page, 'es');
  });

  await test.step('login by e-mail typed in another case', async () => {
    await submitLogin(page, 'es', user.email.toUpperCase(), user.password);
    await expectSignedIn(page, 'es', user);
  });

  await test.step('English: texts change at once and survive a reload', async () => {
    await chooseLanguage(page, 'es', 'en');
    await expectSignedIn(page, 'en', user);
    await expect(page.getByTestId('logout-button')).toHaveText(text('en', 'header.logout'));
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('en');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expectSignedIn(page, 'en', user);
    await screenshotScreen(page, 'home', 'home-en');
  });

  await test.step('logout in English, then the English landing page', async () => {
    await logout(page, 'en');
    await expect(page.getByText(text('en', 'landing.description'))).toBeVisible();
    await expectAccessible(page, 'landing-login-en');
    await dismissToast(page, 'en');
    await screenshotScreen(page, 'auth', 'landing-login-en');
  });

  await test.step('back to Spanish', async () => {
    await chooseLanguage(page, 'en', 'es');
    await expectLanding(page, 'es');
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('es');
    await page.reload();
    await expectLanding(page, 'es');
  });
});

test.describe('first visit with an English browser', () => {
  test.use({ locale: 'en-US' });

  test('shows English (browser language comes before the page language)', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expectLanding(page, 'en');
  });
});

test.describe('at phone width', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the compact header still switches language and logs out', async ({ page }) => {
    const user = uniqueUser('pia');
    await signIn(page, user, 'register');
    await page.goto('/home');
    await expectSignedIn(page, 'es', user);
    // The labels collapse to an icon and a language code; the names stay for screen readers.
    await expect(page.getByTestId('language-switcher')).toContainText('es');
    await expect(page.getByTestId('logout-button')).toHaveAccessibleName(
      text('es', 'header.logout'),
    );
    await chooseLanguage(page, 'es', 'en');
    await expectSignedIn(page, 'en', user);
    // Logging out from /home still ends at /.
    await logout(page, 'en');
  });
});

// One user for both languages: registration is rate-limited per address for the whole run.
const toastUser = uniqueUser('tia');
let toastUserExists = false;

for (const lang of ['es', 'en'] as const) {
  test.describe(`a toast (${lang})`, () => {
    test.use({ locale: lang === 'es' ? 'fr-FR' : 'en-US' });

    test('covers nothing in the header at either width; log out works while it shows', async ({
      page,
      request,
    }) => {
      if (!toastUserExists) await createUser(request, toastUser);
      toastUserExists = true;
      await page.goto('/');
      await submitLogin(page, lang, toastUser.username, toastUser.password);
      await expectToast(page, text(lang, 'landing.login.success'));
      for (const size of Object.values(WIDTHS)) {
        await page.setViewportSize(size);
        const box = await toast(page).boundingBox();
        const top = await page.locator('header').boundingBox();
        expect(box && top, `toast and header at ${size.width} px`).toBeTruthy();
        // Below the header, entirely: the header's buttons stay visible and clickable.
        expect(box!.y, `toast top at ${size.width} px`).toBeGreaterThanOrEqual(
          top!.y + top!.height,
        );
        await capturePng(page, `artifacts/screenshots/auth/toast-${lang}-${size.width}.png`, false);
      }
      await expect(toast(page)).toBeVisible();
      await page.getByTestId('logout-button').click({ timeout: 2_000 });
      await expectLanding(page, lang);
    });
  });
}
