import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { createUser, signIn } from './fixtures/auth';
import { type TLang, text } from './fixtures/catalog';
import { saveUndeployedProxy } from './fixtures/lab-api';
import { WIDTHS } from './fixtures/screenshots';
import { chooseLanguage, expectToast, fieldError, toast } from './fixtures/ui';
import { uniqueUser } from './fixtures/users';
import { capture, expectStep } from './fixtures/wizard';

// A domain already in Portico, at the wizard's first step (docs/PRODUCT.md#proxy-wizard): the
// user's own proxy is offered and home follows after 2 s, the wizard staying meanwhile; another
// account's domain keeps the user on the step with the field marked and everything typed.
const AREA = 'wizard-duplicate';
const SERVER_IP = '198.18.0.10';
const PASSWORD = 'not-used-here';

let counter = 0;
function uniqueDomain(): string {
  counter += 1;
  return `dup-${Date.now().toString(36)}-${counter}.example.test`;
}

/** The wizard in `lang` (the browser's fr-FR shows Spanish first), step one filled in. */
async function fillStepOne(page: Page, lang: TLang, domain: string) {
  await page.goto('/proxy-wizard');
  await expectStep(page, 'server-info');
  if (lang === 'en') await chooseLanguage(page, 'es', 'en');
  await page.locator('#wizard-server-ip').fill(SERVER_IP);
  await page.locator('#wizard-domain').fill(domain);
  await page.locator('#wizard-ssh-password').fill(PASSWORD);
}

async function expectTyped(page: Page, domain: string) {
  await expect(page.locator('#wizard-server-ip')).toHaveValue(SERVER_IP);
  await expect(page.locator('#wizard-domain')).toHaveValue(domain);
  await expect(page.locator('#wizard-ssh-password')).toHaveValue(PASSWORD);
}

/**
 * Both widths of the screen as it is, taken directly: the page's clock is paused here (see the
 * test), and capturePng's wait for steady frames runs on that clock.
 */
async function shootBothWidths(page: Page, name: string) {
  for (const size of Object.values(WIDTHS)) {
    await page.setViewportSize(size);
    await page.screenshot({
      path: `artifacts/screenshots/${AREA}/${name}-${size.width}.png`,
      animations: 'disabled',
      caret: 'hide',
    });
  }
  await page.setViewportSize(WIDTHS.desktop);
}

for (const lang of ['es', 'en'] as const) {
  test.describe(`a duplicate domain (${lang})`, () => {
    test('of the user’s own: the toast offers the proxy, the wizard stays, then home', async ({
      page,
    }) => {
      await signIn(page, uniqueUser('own'), 'register');
      const domain = uniqueDomain();
      await saveUndeployedProxy(page.request, domain);
      // The page's timers wait while the screen is looked at; the 2 s are then run at once.
      await page.clock.install();
      await fillStepOne(page, lang, domain);
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
      await page.getByTestId('wizard-next').click();
      // The page's own zero-delay timers (the query library's) run in small steps of its clock.
      for (let step = 0; step < 50 && !(await toast(page).isVisible()); step += 1) {
        await page.clock.runFor(20);
      }
      await expectToast(
        page,
        text(lang, 'wizard.duplicate.found'),
        text(lang, 'wizard.duplicate.redirecting'),
      );
      await expect(page.getByTestId('wizard-duplicate-open')).toHaveText(
        text(lang, 'wizard.duplicate.openExisting'),
      );
      // Meanwhile the wizard is on screen as the user left it (before: a blank page).
      await expect(page).toHaveURL(/\/proxy-wizard$/);
      await expectStep(page, 'server-info');
      await expectTyped(page, domain);
      await shootBothWidths(page, `own-toast-${lang}`);
      await page.clock.runFor(2_000);
      await page.clock.resume();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByTestId('welcome-heading')).toBeVisible();
    });

    test('of the user’s own: "Open the existing proxy" opens its details', async ({ page }) => {
      await signIn(page, uniqueUser('own'), 'register');
      const domain = uniqueDomain();
      const id = await saveUndeployedProxy(page.request, domain);
      await fillStepOne(page, lang, domain);
      await page.getByTestId('wizard-next').click();
      await page.getByTestId('wizard-duplicate-open').click();
      await expect(page).toHaveURL(new RegExp(`/proxy-details/${id}$`));
      // The return home of the duplicate does not follow the user to the details page.
      await page.waitForTimeout(2_500);
      await expect(page).toHaveURL(new RegExp(`/proxy-details/${id}$`));
    });

    test('of another account: step one stays, the domain field is marked, nothing is lost', async ({
      page,
      playwright,
      baseURL,
    }) => {
      // Another user's proxy, saved from a session of its own.
      const other: APIRequestContext = await playwright.request.newContext({ baseURL });
      const domain = uniqueDomain();
      try {
        await createUser(other, uniqueUser('oth'));
        await saveUndeployedProxy(other, domain);
      } finally {
        await other.dispose();
      }
      await signIn(page, uniqueUser('new'), 'register');
      await fillStepOne(page, lang, domain);
      await page.getByTestId('wizard-next').click();
      const field = page.locator('#wizard-domain');
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(fieldError(page, 'wizard-domain')).toHaveText(
        text(lang, 'errors.domainManaged'),
      );
      await expect(field).toBeFocused();
      // Nothing says whose the domain is, and nothing takes the user away.
      await expect(toast(page)).toHaveCount(0);
      await page.waitForTimeout(2_500);
      await expect(page).toHaveURL(/\/proxy-wizard$/);
      await expectStep(page, 'server-info');
      await expectTyped(page, domain);
      await capture(page, AREA, `other-account-${lang}`);

      // The message is a catalog key on the field: it follows a language switch.
      const next = lang === 'es' ? 'en' : 'es';
      await chooseLanguage(page, lang, next);
      await expect(fieldError(page, 'wizard-domain')).toHaveText(
        text(next, 'errors.domainManaged'),
      );

      // Another domain clears the mark and the wizard goes on.
      await field.fill(uniqueDomain());
      await expect(field).toHaveAttribute('aria-invalid', 'false');
      await page.getByTestId('wizard-next').click();
      await expectStep(page, 'dns-validation');
    });
  });
}
