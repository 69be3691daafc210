import { expect, test } from '@playwright/test';
import { signIn } from './fixtures/auth';
import { expectAccessible } from './fixtures/axe';
import { text } from './fixtures/catalog';
import { screenshotScreen } from './fixtures/screenshots';
import { expectLanding, expectSignedIn } from './fixtures/ui';
import { uniqueUser } from './fixtures/users';

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
