import { expect, test } from '@playwright/test';
import { expectAccessible } from './fixtures/axe';
import { text } from './fixtures/catalog';
import { screenshotScreen } from './fixtures/screenshots';
import { CLOSED_URL } from './fixtures/servers';
import { expectLanding } from './fixtures/ui';

// A second server from the same build, started with PORTICO_REGISTRATION=closed.
test.use({ baseURL: CLOSED_URL });

test('with registration closed the register tab explains it and leads back to login', async ({
  page,
}) => {
  await page.goto('/');
  await expectLanding(page, 'es');
  await page.getByTestId('tab-register').click();
  const closed = page.getByTestId('registration-closed');
  await expect(closed.getByRole('heading')).toHaveText(text('es', 'landing.register.closedTitle'));
  await expect(closed).toContainText(text('es', 'landing.register.closedDescription'));
  await expect(page.locator('#register-username')).toHaveCount(0);
  await expectAccessible(page, 'landing-register-closed');
  await screenshotScreen(page, 'auth', 'landing-register-closed-es');

  await closed.getByRole('button', { name: text('es', 'landing.tabs.login') }).click();
  await expect(page.getByTestId('tab-login')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('#login-identifier')).toBeVisible();
});
