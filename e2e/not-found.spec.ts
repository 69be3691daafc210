import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { createUser, endSessionOnServer, signIn } from './fixtures/auth';
import { expectAccessible } from './fixtures/axe';
import { type TLang, text } from './fixtures/catalog';
import { saveUndeployedProxy } from './fixtures/lab-api';
import { screenshotScreen } from './fixtures/screenshots';
import { expectLanding, expectSignedIn, submitLogin } from './fixtures/ui';
import { type TE2EUser, uniqueUser } from './fixtures/users';

test('signed out, an unknown path shows the not-found screen with a way to the landing page', async ({
  page,
}) => {
  const response = await page.goto('/no/such/page');
  // The SPA fallback serves the app; the app decides what the path means.
  expect(response?.status()).toBe(200);
  const screen = page.getByTestId('not-found');
  await expect(screen.getByRole('heading', { level: 1 })).toHaveText(text('es', 'notFound.title'));
  await expect(screen).toContainText(text('es', 'notFound.description'));
  await expect(page.getByTestId('header-user')).toHaveCount(0);
  await expectAccessible(page, 'not-found-signed-out');
  await screenshotScreen(page, 'not-found', 'signed-out-es');
  await screen.getByRole('link', { name: text('es', 'notFound.goLanding') }).click();
  await expectLanding(page, 'es');
});

test('signed in, an unknown path shows the not-found screen inside the app frame', async ({
  page,
}) => {
  const user = uniqueUser('noa');
  await signIn(page, user, 'register');
  await page.goto('/home');
  await expectSignedIn(page, 'es', user);

  await page.goto('/proxy-details/does-not-exist/extra');
  const screen = page.getByTestId('not-found');
  await expect(screen.getByRole('heading', { level: 1 })).toHaveText(text('es', 'notFound.title'));
  await expect(page.getByTestId('header-username')).toHaveText(user.username);
  await expectAccessible(page, 'not-found-signed-in');
  await screenshotScreen(page, 'not-found', 'signed-in-es');
  await screen.getByRole('link', { name: text('es', 'notFound.goHome') }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectSignedIn(page, 'es', user);
});

const LOCALES = { es: 'fr-FR', en: 'en-US' } as const;

// Two users for the whole file, each registered once (registration is rate-limited per address,
// and every spec of the run shares this server).
const member = uniqueUser('lia');
const outsider = uniqueUser('oth');
const registered = new Set<string>();
async function ensureUser(request: APIRequestContext, user: TE2EUser) {
  if (registered.has(user.username)) return;
  await createUser(request, user);
  registered.add(user.username);
}

/** The sign-in card stands where the page was asked for, with why, and nothing says not found. */
async function expectSignInCard(page: Page, lang: TLang, notice: 'signedOut' | 'expired') {
  await expect(page.getByTestId('sign-in-notice')).toHaveText(
    text(lang, `landing.notice.${notice}`),
  );
  await expect(page.getByTestId('not-found')).toHaveCount(0);
  await expect(page.getByTestId('tab-login')).toHaveAttribute('aria-selected', 'true');
}

for (const lang of ['es', 'en'] as const) {
  test.describe(`signed out, a link to a signed-in page (${lang})`, () => {
    test.use({ locale: LOCALES[lang] });

    test('shows the sign-in card and, once signed in, that page', async ({ page, request }) => {
      const user = member;
      await ensureUser(request, user);
      await page.goto('/proxy-wizard');
      await expectSignInCard(page, lang, 'signedOut');
      await expectAccessible(page, `sign-in-deep-link-${lang}`);
      await screenshotScreen(page, 'not-found', `sign-in-deep-link-${lang}`);
      await submitLogin(page, lang, user.username, user.password);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(lang, 'wizard.title'));
      await expect(page).toHaveURL(/\/proxy-wizard$/);
      await expect(page.getByTestId('header-username')).toHaveText(user.username);
    });

    test('a session that ends mid-use asks to sign in and returns to the page', async ({
      page,
      request,
    }) => {
      const user = member;
      await ensureUser(request, user);
      await signIn(page, user, 'login');
      const id = await saveUndeployedProxy(
        page.request,
        `exp-${Date.now().toString(36)}.example.com`,
      );
      await page.goto('/');
      await expectSignedIn(page, lang, user);
      // The session ends (expired, or signed out elsewhere): the next request gets a 401.
      await endSessionOnServer(page);
      await page
        .locator(`[data-testid="proxy-card"][data-proxy-id="${id}"]`)
        .getByTestId('proxy-card-link')
        .click();
      await expect(page).toHaveURL(new RegExp(`/proxy-details/${id}$`));
      await expectSignInCard(page, lang, 'expired');
      await screenshotScreen(page, 'not-found', `sign-in-expired-${lang}`);
      await submitLogin(page, lang, user.username, user.password);
      await expect(page.getByTestId('proxy-details')).toHaveAttribute('data-proxy-id', id);
      await expect(page).toHaveURL(new RegExp(`/proxy-details/${id}$`));
    });
  });
}

test('what the signed-in user may not see still answers not found after sign-in', async ({
  page,
  browser,
  request,
}) => {
  await ensureUser(request, member);
  await ensureUser(request, outsider);
  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  await signIn(ownerPage, member, 'login');
  const id = await saveUndeployedProxy(
    ownerPage.request,
    `priv-${Date.now().toString(36)}.example.com`,
  );
  await ownerContext.close();

  const other = outsider;
  await page.goto(`/proxy-details/${id}`);
  await expectSignInCard(page, 'es', 'signedOut');
  await submitLogin(page, 'es', other.username, other.password);
  await expect(page.getByTestId('details-not-found')).toContainText(
    text('es', 'proxies.details.configNotFound'),
  );
  await expect(page.getByTestId('basic-info')).toHaveCount(0);

  // Admin pages likewise, for a user who is not an admin.
  await page.goto('/admin/users');
  await expect(page.getByTestId('not-found')).toBeVisible();
});
