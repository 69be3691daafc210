import type { Page } from '@playwright/test';
import { signIn } from './fixtures/auth';
import { type TLang, text } from './fixtures/catalog';
import { api } from './fixtures/lab-api';
import { expect, type TLabApp, test } from './fixtures/lab-app';
import { screenshotScreen } from './fixtures/screenshots';
import { expectToast } from './fixtures/ui';
import { uniqueUser } from './fixtures/users';

// "Sites on this server" on lab s3 (an unrelated hand-written static site): the spec writes one
// hand-written proxy site per language beside it (nginx is not reloaded: the scan reads the
// files), scans from the server page, filters, adopts the site and sees it on home. The site's
// files are removed at the end; nothing of the scan or adoption wrote to the server. The
// adopted site's Convert shows its plan (closed without converting: the lab server is shared).

async function handSite(app: TLabApp, name: string): Promise<void> {
  const conf = `server {\n    listen 80;\n    server_name ${name};\n    location / { proxy_pass http://127.0.0.1:8099; }\n}\n`;
  const done = await app.lab.exec(
    's3',
    ['sh', '-c', `cat > /etc/nginx/sites-enabled/${name}`],
    conf,
  );
  expect(done.code, done.stderr).toBe(0);
}

async function scanAndAdopt(page: Page, app: TLabApp, lang: TLang) {
  const s3 = app.server('s3');
  const site = `hand-${lang}-${Date.now().toString(36)}.s3.portico.test`;
  await handSite(app, site);
  const root = s3.users.find((u) => u.name === 'root')!;
  const created = await api(page.request, 'POST', '/api/ssh-servers', {
    name: `s3-${lang}`,
    host: s3.address,
    username: 'root',
    password: root.password,
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  const area = `sites-scan-${lang}`;
  try {
    await page.goto(`/servers/${created.json.id}`);
    const card = page.getByTestId('server-sites');
    await expect(card).toContainText(text(lang, 'servers.sites.title'));
    await card.getByTestId('sites-scan').click();
    const row = card.getByTestId('site-row').filter({ hasText: site });
    await expect(row).toHaveAttribute('data-class', 'adoptable');
    await expect(row).toContainText(text(lang, 'servers.sites.class.adoptable'));
    await expect(
      card.getByTestId('site-row').filter({ hasText: s3.domains.at(-1)! }),
    ).toHaveAttribute('data-class', 'not_proxy');
    await screenshotScreen(page, area, '1-scanned');
    await card.getByTestId('sites-filter-adoptable').click();
    await expect(card.getByTestId('site-row').filter({ hasText: s3.domains.at(-1)! })).toHaveCount(
      0,
    );
    await row.getByRole('checkbox').check();
    await card.getByTestId('sites-adopt-selected').click();
    await expectToast(page, text(lang, 'servers.sites.adopted_one', { count: 1 }));
    await expect(row).toHaveAttribute('data-class', 'adopted');
    await screenshotScreen(page, area, '2-adopted');
    await page.goto('/');
    await expect(page.getByText(site).first()).toBeVisible();
    // Home says what it is: adopted and live over HTTP, never "pending".
    const onHome = page.getByTestId('proxy-card').filter({ hasText: site });
    await expect(onHome.getByTestId('summary-state')).toHaveText(
      text(lang, 'certificate.summary.state.adopted'),
    );
    await expect(onHome.getByTestId('summary-serving')).toHaveText(
      text(lang, 'certificate.summary.serving.adoptedHttp'),
    );
    await screenshotScreen(page, area, '3-home');
    const proxies = await api(page.request, 'GET', '/api/user/proxy-configurations');
    const adopted = (proxies.json as { id: string; domain: string }[]).find(
      (p) => p.domain === site,
    )!;
    await page.goto(`/proxy-details/${adopted.id}`);
    const section = page.getByTestId('proxy-adopted');
    await expect(section).toContainText(text(lang, 'servers.adopted.notice'));
    await expect(section.getByTestId('proxy-adopted-file')).toContainText(
      'proxy_pass http://127.0.0.1:8099;',
    );
    await expect(page.getByTestId('proxy-summary').first()).toHaveAttribute(
      'data-state',
      'adopted',
    );
    // Redeploy is not offered as if it worked: focused, it says why.
    const redeploy = page.getByTestId('action-redeploy');
    await expect(redeploy).toHaveAttribute('aria-disabled', 'true');
    await redeploy.focus();
    await expect(page.getByTestId('unavailable-reason').first()).toContainText(
      `/etc/nginx/sites-enabled/${site}`,
    );
    await screenshotScreen(page, area, '4-details');
    // Convert shows its plan first: the hand-written file goes, Portico's comes; closed unapplied.
    await section.getByTestId('proxy-convert').click();
    const dialog = page.getByTestId('convert-dialog');
    await expect(dialog).toContainText(
      text(lang, 'servers.adopted.convertTitle', { domain: site }),
    );
    await expect(dialog.getByTestId('plan-view')).toContainText(`/etc/nginx/sites-enabled/${site}`);
    await expect(dialog.getByTestId('plan-view')).toContainText(
      `/etc/nginx/sites-available/proxy-${site}`,
    );
    await expect(dialog.getByTestId('convert-apply')).toHaveText(
      text(lang, 'servers.adopted.convertApply'),
    );
    await screenshotScreen(page, area, '5-convert-plan');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  } finally {
    await app.lab.exec('s3', ['rm', '-f', `/etc/nginx/sites-enabled/${site}`]);
  }
}

test.describe('Sites on this server: scan, then adopt as it is', () => {
  test('in Spanish', async ({ page, labApp }) => {
    await signIn(page, uniqueUser('sca'), 'register');
    await scanAndAdopt(page, labApp, 'es');
  });

  test.describe('in English', () => {
    test.use({ locale: 'en-US' });
    test('from the browser language', async ({ page, labApp }) => {
      await signIn(page, uniqueUser('scb'), 'register');
      await scanAndAdopt(page, labApp, 'en');
    });
  });
});
