import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { createUser, signIn } from './fixtures/auth';
import { expectAccessible } from './fixtures/axe';
import { text } from './fixtures/catalog';
import { screenshotScreen } from './fixtures/screenshots';
import { OPEN_URL } from './fixtures/servers';
import { expectLanding, expectSignedIn } from './fixtures/ui';
import { uniqueUser } from './fixtures/users';
import { fillServerInfo } from './fixtures/wizard';

// What the landing page downloads, read against the build's own map of source module → chunk
// (apps/web/dist/.vite/manifest.json, written by the build the browser tier serves).
const DIST = fileURLToPath(new URL('../apps/web/dist/', import.meta.url));
// 160 kB (160,000 bytes). Texts only screens behind sign-in show (the server's sentences, the
// certificate texts) are namespaces of their own, loaded with those screens (lib/i18n.ts).
const LANDING_JS_BUDGET_GZIP = 160_000;

const MODULES = {
  home: 'src/app/routes/home-route.tsx',
  details: 'src/features/proxies/components/proxy-details-page.tsx',
  wizard: 'src/features/wizard/components/proxy-wizard-page.tsx',
  audit: 'src/features/admin/components/audit-page.tsx',
  users: 'src/features/admin/components/users-page.tsx',
  destinations: 'src/features/admin/components/destinations-page.tsx',
  settings: 'src/features/settings/components/settings-page.tsx',
  twoFactorRequired: 'src/features/settings/components/two-factor-required-page.tsx',
  languageMenu: 'src/components/layout/language-menu.tsx',
  userMenu: 'src/components/layout/user-menu.tsx',
  toaster: 'src/components/ui/toaster.tsx',
  spanish: 'src/locales/es-catalog.ts',
  english: 'src/locales/en-catalog.ts',
  spanishServerTexts: 'src/locales/es-server.ts',
  englishServerTexts: 'src/locales/en-server.ts',
  spanishCertificateTexts: 'src/locales/es-certificate.ts',
  englishCertificateTexts: 'src/locales/en-certificate.ts',
  answerSchemas: 'src/lib/api-schemas.ts',
} as const;
type TModule = keyof typeof MODULES;

/** The chunk file ('assets/….js') each module was built into. */
function chunks(): Record<TModule, string> {
  const manifest = JSON.parse(readFileSync(`${DIST}.vite/manifest.json`, 'utf8')) as Record<
    string,
    { file: string }
  >;
  const files = {} as Record<TModule, string>;
  for (const [name, source] of Object.entries(MODULES) as [TModule, string][]) {
    const entry = manifest[source];
    expect(entry, `${source} in the build manifest`).toBeDefined();
    files[name] = entry!.file;
  }
  return files;
}

/** The scripts the page fetches from here on ('assets/….js'), with the encoding each came in. */
function recordScripts(page: Page): Map<string, string | null> {
  const seen = new Map<string, string | null>();
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (path.endsWith('.js'))
      seen.set(path.slice(1), response.headers()['content-encoding'] ?? null);
  });
  return seen;
}

/** Bytes of the file as gzip sends it (its .gz variant, or the file when it has none). */
function gzipBytes(file: string): number {
  const gz = `${DIST}${file}.gz`;
  return statSync(existsSync(gz) ? gz : `${DIST}${file}`).size;
}

test('the landing page loads no signed-in screen, only the Spanish texts, all compressed', async ({
  page,
}) => {
  const built = chunks();
  const scripts = recordScripts(page);
  await page.goto('/');
  // Whatever the landing render imports is requested before its heading can show.
  await expectLanding(page, 'es');

  const fetched = [...scripts.keys()];
  for (const name of [
    'home',
    'details',
    'wizard',
    'audit',
    'users',
    'destinations',
    'settings',
    'twoFactorRequired',
    'languageMenu',
    'userMenu',
    'toaster',
    'english',
    'spanishServerTexts',
    'englishServerTexts',
    'spanishCertificateTexts',
    'englishCertificateTexts',
  ] as const) {
    expect(fetched, `${MODULES[name]} (${built[name]}) is not loaded`).not.toContain(built[name]);
  }
  expect(fetched).toContain(built.spanish);
  // Chromium accepts brotli: every script that has a .br variant came as one.
  for (const [file, encoding] of scripts) {
    if (existsSync(`${DIST}${file}.br`)) expect(encoding, file).toBe('br');
  }
  const gzip = fetched.reduce((sum, file) => sum + gzipBytes(file), 0);
  expect(gzip, `landing JavaScript as gzip: ${fetched.join(', ')}`).toBeLessThanOrEqual(
    LANDING_JS_BUDGET_GZIP,
  );

  // The language menu arrives when first opened, and switches the language.
  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitemradio', { name: text('es', 'common.languages.en') }).click();
  await expectLanding(page, 'en');
  expect([...scripts.keys()]).toEqual(expect.arrayContaining([built.languageMenu, built.english]));
});

// Signing in waits for nothing it does not need: the CSRF token is checked without fetching the
// answer schemas' chunk (only an error answer needs it), and the sign-in's own answer says who
// signed in, so the session is not asked again before home shows.
test('signing in fetches no checking code and does not ask again who signed in', async ({
  page,
  request,
}) => {
  const built = chunks();
  const user = uniqueUser('straight');
  await createUser(request, user);
  const scripts = recordScripts(page);
  await page.goto('/');
  await expectLanding(page, 'es');
  let sessionAsked = 0;
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/auth/user') sessionAsked += 1;
  });
  await page.getByTestId('tab-login').click();
  await page.locator('#login-identifier').fill(user.username);
  await page.locator('#login-password').fill(user.password);
  await page.locator('#login-password').press('Enter');
  await expectSignedIn(page, 'es', user);
  expect(sessionAsked).toBe(0);
  expect([...scripts.keys()]).not.toContain(built.answerSchemas);
});

// The server sends a visitor without a session the landing page already rendered, in the
// language it picks (Accept-Language here; the language cookie first): it shows before any script
// has run, and the app then takes over those same nodes.
for (const [locale, lang] of [
  ['fr-FR', 'es'],
  ['en-GB', 'en'],
] as const) {
  test(`the landing page arrives rendered (${lang}): readable before its scripts, inert until the app holds it`, async ({
    browser,
  }) => {
    // The page as it stands before its scripts arrive: here they never do.
    const bare = await browser.newContext({ locale });
    try {
      const page = await bare.newPage();
      await page.route('**/*.js', (route) => route.abort());
      await page.goto(`${OPEN_URL}/`);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(lang, 'landing.title'));
      const submit = page.getByRole('button', { name: text(lang, 'landing.login.submit') });
      await expect(submit).toBeDisabled();
      await expect(page.getByTestId('tab-register')).toBeDisabled();
      await expect(page.getByTestId('language-switcher')).toBeDisabled();
      for (const field of ['#login-identifier', '#login-password']) {
        await expect(page.locator(field)).not.toBeEditable();
      }
      await screenshotScreen(page, 'first-paint', `landing-prerendered-${lang}`);
    } finally {
      await bare.close();
    }

    const context = await browser.newContext({ locale });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        // The session check's 401 (signed out) is logged by Chromium itself; a hydration
        // mismatch would be logged by React.
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
          errors.push(message.text());
        }
      });
      // The texts' chunk is held until the prerendered heading has been marked: the app cannot
      // take the page over before, so the mark tells whether it kept the server's nodes.
      const built = chunks();
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(`**/${lang === 'es' ? built.spanish : built.english}`, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto('/');
      await page.getByRole('heading', { level: 1 }).evaluate((h1) => {
        h1.dataset.fromServer = 'yes';
      });
      release();
      const submit = page.getByRole('button', { name: text(lang, 'landing.login.submit') });
      await expect(submit).toBeEnabled();
      await expect(page.locator('#login-password')).toBeEditable();
      await expect(page.getByRole('heading', { level: 1 })).toHaveAttribute(
        'data-from-server',
        'yes',
      );
      // Live: the register tab opens.
      await page.getByTestId('tab-register').click();
      await expect(page.locator('#register-username')).toBeEditable();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
}

test('signed in, the home screen and the wizard arrive as their own chunks while the header stays', async ({
  page,
}) => {
  const built = chunks();
  const user = uniqueUser('lazy');
  await signIn(page, user, 'register');
  const scripts = recordScripts(page);
  // The wizard's chunk is held until its loading state has been looked at.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(`**/${built.wizard}`, async (route) => {
    await held;
    await route.continue();
  });

  await page.goto('/');
  await expectSignedIn(page, 'es', user);
  expect([...scripts.keys()]).toContain(built.home);
  expect([...scripts.keys()]).not.toContain(built.wizard);
  expect([...scripts.keys()]).not.toContain(built.spanishServerTexts);
  // The home page's expiry badges come with their texts, in Spanish only.
  expect([...scripts.keys()]).toContain(built.spanishCertificateTexts);
  expect([...scripts.keys()]).not.toContain(built.englishCertificateTexts);
  const header = page.locator('header');
  const headerBox = await header.boundingBox();

  await page.getByTestId('create-proxy').click();
  const loading = page.getByTestId('route-loading');
  await expect(loading.getByRole('status')).toHaveText(text('es', 'common.loading'));
  await expect(page.locator('main')).toContainText(text('es', 'common.loading'));
  expect(await header.boundingBox()).toEqual(headerBox);
  await expect(page.getByTestId('header-username')).toHaveText(user.username);
  await screenshotScreen(page, 'first-paint', 'wizard-loading-es');

  release();
  await expect(page.getByTestId('wizard-back-home')).toBeVisible();
  await expect(loading).toHaveCount(0);
  expect(await header.boundingBox()).toEqual(headerBox);
  expect([...scripts.keys()]).toContain(built.wizard);
  // It shows the deployment log, so it came with the server's sentences, in Spanish only.
  expect([...scripts.keys()]).toContain(built.spanishServerTexts);
  expect([...scripts.keys()]).not.toContain(built.englishServerTexts);
  // The wizard works: its form takes input and derives the certificate e-mail from the domain.
  await fillServerInfo(page, 'es', {
    serverIp: '203.0.113.7',
    domain: 'lazy.example.com',
    password: 'not-used',
  });
  // A user who is not an admin never downloads the admin screens.
  for (const name of ['audit', 'users', 'destinations'] as const) {
    expect([...scripts.keys()]).not.toContain(built[name]);
  }

  // The user menu's code and the settings page come when first asked for, the header in place.
  expect([...scripts.keys()]).not.toContain(built.userMenu);
  expect([...scripts.keys()]).not.toContain(built.settings);
  await page.getByTestId('user-menu').click();
  await page.getByTestId('menu-settings').click();
  await expect(page.getByTestId('settings-page')).toBeVisible();
  await expect(page).toHaveURL(/\/settings$/);
  expect(await header.boundingBox()).toEqual(headerBox);
  expect([...scripts.keys()]).toEqual(expect.arrayContaining([built.userMenu, built.settings]));
  // Only an account held by PORTICO_REQUIRE_2FA needs the required-setup screen.
  expect([...scripts.keys()]).not.toContain(built.twoFactorRequired);
});

// A chunk that no longer exists, as after an update renamed every chunk: the wizard's own, or the
// server's sentences it loads with it (else the log would show catalog keys).
for (const gone of ['wizard', 'spanishServerTexts'] as const) {
  test(`a screen whose chunk is gone (${gone}; Portico updated meanwhile) reloads once, then says so`, async ({
    page,
  }) => {
    const built = chunks();
    await signIn(page, uniqueUser('gone'), 'register');
    await page.goto('/');
    await expect(page.getByTestId('welcome-heading')).toBeVisible();
    await page.route(`**/${built[gone]}`, (route) => route.fulfill({ status: 404, body: '' }));
    let loads = 0;
    page.on('load', () => {
      loads += 1;
    });
    await page.getByTestId('create-proxy').click();
    const failed = page.getByTestId('screen-failed');
    await expect(failed).toContainText(text('es', 'common.screenFailed.title'));
    await expect(failed).toContainText(text('es', 'common.screenFailed.description'));
    // One reload to fetch a newer build, not a loop; the header stays usable.
    expect(loads).toBe(1);
    await expect(page).toHaveURL(/\/proxy-wizard$/);
    await expect(page.getByTestId('wizard-back-home')).toHaveCount(0);
    await expect(page.getByTestId('logout-button')).toBeVisible();
    await expectAccessible(page, 'screen-failed');
    await screenshotScreen(page, 'first-paint', `screen-failed-${gone}-es`);

    // Once the file is there again, the button brings the screen.
    await page.unroute(`**/${built[gone]}`);
    await failed.getByRole('button', { name: text('es', 'common.screenFailed.retry') }).click();
    await expect(page.getByTestId('wizard-back-home')).toBeVisible();
  });
}

// The session check answered 503 or not at all, as a Portico restarting or a proxy in front of it
// would: a signed-in user is told Portico did not answer, never shown the landing page as if
// signed out, and "Reintentar" brings home once it answers.
test('a session check with no answer says so, tries again on request, then shows home', async ({
  page,
}) => {
  await signIn(page, uniqueUser('noans'), 'register');
  let refused = 0;
  await page.route('**/api/auth/user', async (route) => {
    refused += 1;
    if (refused % 2 === 0) await route.abort('connectionreset');
    else await route.fulfill({ status: 503, contentType: 'application/json', body: '{}' });
  });
  await page.goto('/');
  const failed = page.getByTestId('session-failed');
  await expect(failed).toContainText(text('es', 'common.sessionFailed.title'));
  await expect(failed).toContainText(text('es', 'common.sessionFailed.description'));
  // Tried four times before saying so; no landing page, no sign-in card.
  expect(refused).toBe(4);
  await expect(page.getByTestId('tab-login')).toHaveCount(0);
  await expectAccessible(page, 'session-failed');
  await screenshotScreen(page, 'first-paint', 'session-failed-es');

  await page.unroute('**/api/auth/user');
  await failed.getByRole('button', { name: text('es', 'common.sessionFailed.retry') }).click();
  await expect(page.getByTestId('welcome-heading')).toBeVisible();
});
