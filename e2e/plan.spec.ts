import type { APIRequestContext } from '@playwright/test';
import { signIn } from './fixtures/auth';
import { text } from './fixtures/catalog';
import { api, configuration, saveConfiguration, waitForRunEnd } from './fixtures/lab-api';
import { expect, fetchSite, type TLabApp, test } from './fixtures/lab-app';
import { chooseLanguage, expectToast } from './fixtures/ui';
import { uniqueUser } from './fixtures/users';
import { capture } from './fixtures/wizard';

// The plan before the change (issue 39) on a real lab server: a deployed proxy's plan says
// nothing changes; an edit of its target shows its diff before anything is written; applied,
// the site answers from the new target.
const AREA = 'plan';

/** Every file and link under /etc/nginx and /etc/letsencrypt on s1, with modes, times, hashes. */
async function serverState(labApp: TLabApp): Promise<string> {
  const r = await labApp.lab.exec('s1', [
    'bash',
    '-c',
    'find /etc/nginx /etc/letsencrypt -printf "%p %y %m %T@ %s %l\\n" | sort; find /etc/nginx -type f -exec sha256sum {} + | sort',
  ]);
  return r.stdout;
}

test('edit a target, see the plan with its diff, apply, and the site answers from the new target', async ({
  page,
  labApp,
}) => {
  test.setTimeout(300_000);
  const user = uniqueUser('pln');
  await signIn(page, user, 'register');
  const domain = labApp.server('s1').domains[0] as string;
  const id = await saveConfiguration(page.request, labApp, 's1', domain, labApp.upstream);
  const started = await api(page.request, 'POST', `/api/deploy/${id}`);
  expect(started.status, JSON.stringify(started.json)).toBe(202);
  expect((await waitForRunEnd(page.request, id, 120_000)).status).toBe('completed');

  // The details page: the plan of the proxy as deployed changes no file (and writes none).
  await page.goto(`/proxy-details/${id}`);
  const before = await serverState(labApp);
  await page.getByTestId('action-plan').click();
  const planDialog = page.getByTestId('plan-dialog');
  await expect(planDialog.getByTestId('plan-changes')).toHaveText(text('es', 'plan.noChanges'), {
    timeout: 30_000,
  });
  await expect(planDialog.getByTestId('plan-diff')).toHaveCount(0);
  expect(await serverState(labApp)).toBe(before);
  await capture(page, AREA, 'details-unchanged-es');
  await page.keyboard.press('Escape');

  // The edit dialog: a new target, its plan before saving, one changed proxy_pass line.
  const target = `${labApp.upstream}/v2/`;
  await page.goto('/');
  const card = page.locator(`[data-testid="proxy-card"][data-proxy-id="${id}"]`);
  await card.getByTestId('proxy-edit').click();
  const dialog = page.getByTestId('edit-proxy-dialog');
  await dialog.locator('#edit-target').fill(target);
  await dialog.getByTestId('edit-proxy-plan').click();
  const diff = dialog.getByTestId('plan-diff').first();
  await expect(diff.locator('ins', { hasText: 'proxy_pass' })).toContainText(
    `+        proxy_pass ${target};`,
    { timeout: 30_000 },
  );
  await expect(diff.locator('del', { hasText: 'proxy_pass' })).toContainText(
    `-        proxy_pass ${labApp.upstream};`,
  );
  await expect(dialog.getByTestId('plan-changes')).toHaveText(
    text('es', 'plan.changes_one', { count: 1 }),
  );
  await expect(dialog.getByTestId('plan-reload')).toHaveText(text('es', 'plan.reloadYes'));
  expect(await serverState(labApp)).toBe(before);
  await capture(page, AREA, 'edit-plan-es');

  await dialog.getByTestId('edit-plan-apply').click();
  await expectToast(page, text('es', 'plan.applied'), text('es', 'plan.applyHint'));
  expect((await waitForRunEnd(page.request, id, 120_000)).status).toBe('completed');
  expect((await configuration(page.request, id)).targetServer).toBe(target);
  const answer = await fetchSite(labApp, labApp.server('s1').address, domain, '/hello');
  expect(answer.status).toBe(200);
  expect(answer.json).toMatchObject({
    upstream: labApp.lab.status.upstream.name,
    path: '/v2/hello',
  });

  // In English, the plan of the next edit (back to the first target) on the details page's
  // words, and at phone width.
  await page.goto(`/proxy-details/${id}`);
  await chooseLanguage(page, 'es', 'en');
  await page.goto('/');
  await card.getByTestId('proxy-edit').click();
  await dialog.locator('#edit-target').fill(labApp.upstream);
  await dialog.getByTestId('edit-proxy-plan').click();
  await expect(dialog.getByTestId('plan-changes')).toHaveText(
    text('en', 'plan.changes_one', { count: 1 }),
    { timeout: 30_000 },
  );
  await expect(dialog.getByTestId('plan-reload')).toHaveText(text('en', 'plan.reloadYes'));
  await capture(page, AREA, 'edit-plan-en');
  await dialog.getByTestId('edit-plan-back').click();
  await expect(dialog.locator('#edit-target')).toHaveValue(labApp.upstream);
  await page.keyboard.press('Escape');

  // The details page in English: the proxy as saved (the new target) changes nothing.
  await page.goto(`/proxy-details/${id}`);
  await page.getByTestId('action-plan').click();
  await expect(planDialog.getByTestId('plan-changes')).toHaveText(text('en', 'plan.noChanges'), {
    timeout: 30_000,
  });
  await capture(page, AREA, 'details-unchanged-en');
  await removeFromLab(page.request, id);
});

// Issue 39's "a browser test edits options, views the plan (diff visible), applies, and sees the
// result": a response header added in the edit dialog's Options is one added line in the site
// file's diff, nothing is written before Apply, and after it the site serves the header.
test('add a response header in Options, see it in the plan, apply, and the site serves it', async ({
  page,
  labApp,
}) => {
  test.setTimeout(300_000);
  await signIn(page, uniqueUser('plo'), 'register');
  const address = labApp.server('s1').address;
  const domain = labApp.server('s1').domains[1] as string;
  const id = await saveConfiguration(page.request, labApp, 's1', domain, labApp.upstream);
  const started = await api(page.request, 'POST', `/api/deploy/${id}`);
  expect(started.status, JSON.stringify(started.json)).toBe(202);
  expect((await waitForRunEnd(page.request, id, 120_000)).status).toBe('completed');
  const header = 'X-Portico-Plan';
  const value = `opt-${Date.now().toString(36)}`;
  expect((await fetchSite(labApp, address, domain, '/')).headers[header.toLowerCase()]).toBe(
    undefined,
  );

  await page.goto('/');
  const card = page.locator(`[data-testid="proxy-card"][data-proxy-id="${id}"]`);
  await card.getByTestId('proxy-edit').click();
  const dialog = page.getByTestId('edit-proxy-dialog');
  await dialog.getByTestId('edit-toggle').click();
  await dialog.getByTestId('edit-headers').fill(`${header}: ${value}`);
  const before = await serverState(labApp);
  await dialog.getByTestId('edit-proxy-plan').click();
  const diff = dialog.getByTestId('plan-diff').first();
  const added = diff.locator('ins', { hasText: header });
  await expect(added).toContainText(`+    add_header ${header} "${value}" always;`, {
    timeout: 30_000,
  });
  // Only the header changes: no line of the site file is removed.
  await expect(diff.locator('del')).toHaveCount(0);
  await expect(dialog.getByTestId('plan-changes')).toHaveText(
    text('es', 'plan.changes_one', { count: 1 }),
  );
  await expect(dialog.getByTestId('plan-reload')).toHaveText(text('es', 'plan.reloadYes'));
  expect(await serverState(labApp)).toBe(before);
  await added.scrollIntoViewIfNeeded();
  await capture(page, AREA, 'options-plan-es');

  await dialog.getByTestId('edit-plan-apply').click();
  await expectToast(page, text('es', 'plan.applied'), text('es', 'plan.applyHint'));
  expect((await waitForRunEnd(page.request, id, 120_000)).status).toBe('completed');
  expect((await configuration(page.request, id)).options).toMatchObject({
    headers: [{ name: header, value }],
  });
  const answer = await fetchSite(labApp, address, domain, '/hello');
  expect(answer.status).toBe(200);
  expect(answer.headers[header.toLowerCase()]).toBe(value);

  // Applied, the proxy as saved changes nothing: the details page's plan, in English.
  await page.goto(`/proxy-details/${id}`);
  await chooseLanguage(page, 'es', 'en');
  await page.getByTestId('action-plan').click();
  await expect(page.getByTestId('plan-dialog').getByTestId('plan-changes')).toHaveText(
    text('en', 'plan.noChanges'),
    { timeout: 30_000 },
  );
  await page.keyboard.press('Escape');

  // In English, the header taken out again: its line is removed in the plan, and once applied
  // the site no longer serves it.
  await page.goto('/');
  await card.getByTestId('proxy-edit').click();
  await dialog.getByTestId('edit-toggle').click();
  await dialog.getByTestId('edit-headers').fill('');
  await dialog.getByTestId('edit-proxy-plan').click();
  const removed = diff.locator('del', { hasText: header });
  await expect(removed).toContainText(`-    add_header ${header} "${value}" always;`, {
    timeout: 30_000,
  });
  await expect(diff.locator('ins')).toHaveCount(0);
  await expect(dialog.getByTestId('plan-changes')).toHaveText(
    text('en', 'plan.changes_one', { count: 1 }),
  );
  await removed.scrollIntoViewIfNeeded();
  await capture(page, AREA, 'options-plan-en');
  await dialog.getByTestId('edit-plan-apply').click();
  await expectToast(page, text('en', 'plan.applied'), text('en', 'plan.applyHint'));
  expect((await waitForRunEnd(page.request, id, 120_000)).status).toBe('completed');
  const after = await fetchSite(labApp, address, domain, '/hello');
  expect(after.status).toBe(200);
  expect(after.headers[header.toLowerCase()]).toBe(undefined);
  await removeFromLab(page.request, id);
});

/**
 * s1's names are the wizard spec's too (it runs after this one, on the same lab): each test
 * leaves s1 as it found it, its site and certificate removed and the name free again.
 */
async function removeFromLab(request: APIRequestContext, id: string) {
  const removed = await api(
    request,
    'DELETE',
    `/api/proxy-configurations/${id}?removeFromServer=true&removeCertificate=true`,
  );
  expect(removed.status, JSON.stringify(removed.json)).toBe(200);
}
