import { expect, type Page, test } from '@playwright/test';
import { createUser } from './fixtures/auth';
import { expectAccessible } from './fixtures/axe';
import { type TLang, text } from './fixtures/catalog';
import { screenshotScreen } from './fixtures/screenshots';
import {
  chooseLanguage,
  expectLanding,
  expectToast,
  fieldError,
  submitLogin,
  submitRegister,
} from './fixtures/ui';
import { uniqueUser } from './fixtures/users';

// The rules and messages of the landing forms, in each language. Spanish is what a browser
// in a language Portico does not offer gets (the project's locale); English comes from the
// browser language, which detection tries before the page's own lang="es".
const LOCALES: Record<TLang, string> = { es: 'fr-FR', en: 'en-US' };

// The English texts (docs/PRODUCT.md#validation-rules): the English catalog must say exactly this.
const SPEC_EN = {
  'validation.identifier.required': 'Username or email is required',
  'validation.loginPassword.required': 'Password is required',
  'validation.username.min': 'Username must be at least 3 characters long',
  'validation.email.invalid': 'Please enter a valid email address',
  'validation.password.min': 'Password must be at least 8 characters long',
  'validation.password.complexity':
    'Password must contain at least one uppercase letter, one lowercase letter, and one number',
  'validation.password.mismatch': 'Passwords must match',
  'validation.password.hint': 'Must be 8+ characters with uppercase, lowercase, and numbers',
  'errors.invalidCredentials': 'Invalid credentials',
  'landing.login.failed': 'Login failed',
  'landing.register.failed': 'Registration failed',
} as const;

/** The text for a key in this language; in English it must also be the documented wording. */
/** The screen passes axe and is saved as a screenshot under the same name. */
async function checkScreen(page: Page, name: string): Promise<void> {
  await expectAccessible(page, name);
  await screenshotScreen(page, 'auth', name);
}

function message(lang: TLang, key: keyof typeof SPEC_EN): string {
  const shown = text(lang, key);
  if (lang === 'en') expect(shown, `en catalog ${key} as documented`).toBe(SPEC_EN[key]);
  return shown;
}

for (const lang of ['es', 'en'] as const) {
  test.describe(`landing forms in ${lang}`, () => {
    test.use({ locale: LOCALES[lang] });

    test.beforeEach(async ({ page }) => {
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expectLanding(page, lang);
    });

    test('empty login shows both required messages', async ({ page }) => {
      await submitLogin(page, lang, '', '');
      await expect(fieldError(page, 'login-identifier')).toHaveText(
        message(lang, 'validation.identifier.required'),
      );
      await expect(fieldError(page, 'login-password')).toHaveText(
        message(lang, 'validation.loginPassword.required'),
      );
      await expect(page.locator('#login-identifier')).toHaveAttribute('aria-invalid', 'true');
      await expect(page.locator('#login-identifier')).toBeFocused();
      await checkScreen(page, `landing-login-errors-${lang}`);
    });

    test('an empty register form says each field is required', async ({ page }) => {
      await submitRegister(page, lang, {
        username: '',
        email: '',
        password: '',
        confirmPassword: '',
      });
      // The password too ("required", not "at least 8 characters"), and the confirmation.
      for (const id of ['username', 'email', 'password', 'confirm-password']) {
        await expect(fieldError(page, `register-${id}`)).toHaveText(
          text(lang, 'validation.required'),
        );
      }
      await expect(page.locator('[data-slot="toast"]')).toHaveCount(0);
      await checkScreen(page, `landing-register-empty-${lang}`);
    });

    test('register shows the validation messages for each bad field', async ({ page }) => {
      await submitRegister(page, lang, {
        username: 'ab',
        email: 'not-an-email',
        password: 'short',
        confirmPassword: 'different',
      });
      await expect(fieldError(page, 'register-username')).toHaveText(
        message(lang, 'validation.username.min'),
      );
      await expect(fieldError(page, 'register-email')).toHaveText(
        message(lang, 'validation.email.invalid'),
      );
      await expect(fieldError(page, 'register-password')).toHaveText(
        message(lang, 'validation.password.min'),
      );
      await expect(fieldError(page, 'register-confirm-password')).toHaveText(
        message(lang, 'validation.password.mismatch'),
      );
      await expect(page.locator('#register-password-hint')).toHaveText(
        message(lang, 'validation.password.hint'),
      );
      await checkScreen(page, `landing-register-errors-${lang}`);

      // Long enough but without an upper-case letter or a digit.
      await page.locator('#register-password').fill('abcdefghij');
      await expect(fieldError(page, 'register-password')).toHaveText(
        message(lang, 'validation.password.complexity'),
      );
      // Nothing was sent: still on the landing page, no toast.
      await expect(page.locator('[data-slot="toast"]')).toHaveCount(0);
    });

    test('a wrong password gives the invalid-credentials toast', async ({ page, request }) => {
      const user = uniqueUser('eva');
      await createUser(request, user);
      await submitLogin(page, lang, user.username, `${user.password}x`);
      await expectToast(
        page,
        message(lang, 'landing.login.failed'),
        message(lang, 'errors.invalidCredentials'),
      );
      await expectLanding(page, lang);
      await expect(page.locator('[data-slot="toast"]')).toHaveAttribute(
        'data-variant',
        'destructive',
      );
      await checkScreen(page, `landing-login-failed-${lang}`);
    });

    test('registering a taken username or e-mail says so on the field', async ({
      page,
      request,
    }) => {
      const taken = uniqueUser('leo');
      await createUser(request, taken);
      const other = uniqueUser('mia');
      await submitRegister(page, lang, {
        username: taken.username,
        email: other.email,
        password: other.password,
        confirmPassword: other.password,
      });
      await expect(fieldError(page, 'register-username')).toHaveText(
        text(lang, 'errors.usernameTaken'),
      );
      await expectToast(
        page,
        message(lang, 'landing.register.failed'),
        text(lang, 'errors.usernameTaken'),
      );
      await expectLanding(page, lang);

      // A free username with the taken e-mail typed in capitals: the e-mail is the problem now.
      await page.locator('#register-username').fill(uniqueUser('mia').username);
      await page.locator('#register-email').fill(taken.email.toUpperCase());
      await page.getByRole('button', { name: text(lang, 'landing.register.submit') }).click();
      await expect(fieldError(page, 'register-email')).toHaveText(text(lang, 'errors.emailTaken'));
      await expect(fieldError(page, 'register-username')).toHaveCount(0);
      await expectLanding(page, lang);
    });
  });
}

test('the show/hide toggle switches each password input between hidden and plain text', async ({
  page,
}) => {
  await page.goto('/');
  const check = async (id: string) => {
    const input = page.locator(`#${id}`);
    const toggle = page.locator(`button[aria-controls="${id}"]`);
    await input.fill('Secret123');
    await expect(input).toHaveAttribute('type', 'password');
    await expect(toggle).toHaveAccessibleName(text('es', 'password.show'));
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await toggle.click();
    await expect(input).toHaveAttribute('type', 'text');
    await expect(input).toHaveValue('Secret123');
    await expect(toggle).toHaveAccessibleName(text('es', 'password.hide'));
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await toggle.click();
    await expect(input).toHaveAttribute('type', 'password');
  };
  await check('login-password');
  await page.getByTestId('tab-register').click();
  await check('register-password');
  await check('register-confirm-password');
});

test('errors already on screen follow the language switcher at once', async ({ page }) => {
  await page.goto('/');
  await submitLogin(page, 'es', '', '');
  await expect(fieldError(page, 'login-identifier')).toHaveText(
    text('es', 'validation.identifier.required'),
  );
  await chooseLanguage(page, 'es', 'en');
  await expect(fieldError(page, 'login-identifier')).toHaveText(
    text('en', 'validation.identifier.required'),
  );
  await expect(fieldError(page, 'login-password')).toHaveText(
    text('en', 'validation.loginPassword.required'),
  );
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'landing.title'));
});

test('an unknown user gets the same answer as a wrong password; F8 reaches the toast', async ({
  page,
}) => {
  await page.goto('/');
  const nobody = uniqueUser('zoe');
  await submitLogin(page, 'es', nobody.username, nobody.password);
  await expectToast(
    page,
    text('es', 'landing.login.failed'),
    text('es', 'errors.invalidCredentials'),
  );
  // Radix fills in the hotkey itself, with single braces.
  const label = text('es', 'common.notifications').replace('{hotkey}', 'F8');
  await page.keyboard.press('F8');
  await expect(page.getByRole('region', { name: label }).locator('ol')).toBeFocused();
});

test('a slow press on Sign in submits even when leaving the password shows its error', async ({
  page,
}) => {
  await page.goto('/');
  await expectLanding(page, 'es');
  await page.locator('#login-identifier').fill('');
  await page.locator('#login-password').fill('');
  // Leaving the first field checked it: its error shows (the form's checks have loaded).
  await expect(fieldError(page, 'login-identifier')).toHaveText(
    text('es', 'validation.identifier.required'),
  );
  await expect(fieldError(page, 'login-password')).toHaveCount(0);
  // A person's press: down near the button's top edge, up a moment later at the same place.
  // Had the press taken the focus, the password's error would show in between and push the
  // button down from under the pointer, and the release would land beside it: nothing submitted.
  const button = page
    .getByRole('form', { name: text('es', 'landing.tabs.login') })
    .getByRole('button', { name: text('es', 'landing.login.submit') });
  const box = (await button.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + 4);
  await page.mouse.down();
  await page.waitForTimeout(300);
  await page.mouse.up();
  // Submitted: every field checked, and the focus on the first one in error.
  await expect(fieldError(page, 'login-password')).toHaveText(
    text('es', 'validation.loginPassword.required'),
  );
  await expect(page.locator('#login-identifier')).toBeFocused();
});
