import http from 'node:http';
import type { Page } from '@playwright/test';
import { signIn } from './fixtures/auth';
import { type TLang, text } from './fixtures/catalog';
import { api } from './fixtures/lab-api';
import { expect, type TLabApp, test } from './fixtures/lab-app';
import { screenshotScreen } from './fixtures/screenshots';
import { expectToast } from './fixtures/ui';
import { uniqueUser } from './fixtures/users';

// "Sites on this server" on lab s3 (an unrelated hand-written static site): the spec writes one
// hand-written proxy site per language beside it, scans from the server page, filters, adopts
// the site and sees it on home; nothing of the scan or adoption wrote to the server. The
// adopted site's Convert shows its plan: in Spanish it is closed unapplied (nginx never loads
// that site: the scan reads the files); in English the site is live (nginx reloaded, its
// upstream a second hand-written block) and the conversion is applied: the proxy becomes an
// ordinary Portico one and the site answers from outside as before. Every file is removed at
// the end and nginx reloaded.

const UPSTREAM = 8099;
const upstreamFile = (name: string) => `/etc/nginx/sites-enabled/${name}-upstream`;

async function handSite(app: TLabApp, name: string, live: boolean): Promise<void> {
  const conf = `server {\n    listen 80;\n    server_name ${name};\n    location / { proxy_pass http://127.0.0.1:${UPSTREAM}; }\n}\n`;
  const done = await app.lab.exec(
    's3',
    ['sh', '-c', `cat > /etc/nginx/sites-enabled/${name}`],
    conf,
  );
  expect(done.code, done.stderr).toBe(0);
  if (!live) return;
  // The site's upstream: a block of its own with no name, on the loopback only.
  const upstream = `server {\n    listen 127.0.0.1:${UPSTREAM};\n    return 200 "hand-written upstream of ${name}\\n";\n}\n`;
  const written = await app.lab.exec(
    's3',
    ['sh', '-c', `cat > ${upstreamFile(name)} && nginx -t && nginx -s reload`],
    upstream,
  );
  expect(written.code, written.stderr).toBe(0);
}

/** The site as a visitor sees it over HTTP, asked from the test host at s3's address. */
function askSite(address: string, domain: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      { host: address, path: '/', headers: { host: domain }, agent: false, timeout: 10_000 },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('timeout', () => request.destroy(new Error(`http://${domain}/ timed out`)));
    request.on('error', reject);
  });
}

/** The site's card on home reads `state` and `serving` (certificate.summary's words). */
async function expectHomeCard(
  page: Page,
  site: string,
  lang: TLang,
  state: string,
  serving: string,
) {
  const card = page.getByTestId('proxy-card').filter({ hasText: site });
  await expect(card.getByTestId('summary-state')).toHaveText(
    text(lang, `certificate.summary.state.${state}`),
  );
  await expect(card.getByTestId('summary-serving')).toHaveText(
    text(lang, `certificate.summary.serving.${serving}`),
  );
}

async function scanAndAdopt(page: Page, app: TLabApp, lang: TLang, apply: boolean) {
  const s3 = app.server('s3');
  const site = `hand-${lang}-${Date.now().toString(36)}.s3.portico.test`;
  await handSite(app, site, apply);
  const answer = { status: 200, body: `hand-written upstream of ${site}\n` };
  // nginx's new workers take the reload over in a moment.
  if (apply) await expect.poll(() => askSite(s3.address, site)).toEqual(answer);
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
    await expectHomeCard(page, site, lang, 'adopted', 'adoptedHttp');
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
    if (!apply) {
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      return;
    }
    // Applied: the proxy is Portico's now, and the site answers from outside as it did.
    await dialog.getByTestId('convert-apply').click();
    await expectToast(page, text(lang, 'servers.adopted.converted', { domain: site }));
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('proxy-adopted')).toHaveCount(0);
    await expect(page.getByTestId('proxy-summary').first()).toHaveAttribute('data-state', 'live');
    await expect(page.getByTestId('action-redeploy')).not.toHaveAttribute('aria-disabled', 'true');
    await screenshotScreen(page, area, '6-converted');
    expect(await askSite(s3.address, site)).toEqual(answer);
    const now = (await api(page.request, 'GET', `/api/proxy-configurations/${adopted.id}`))
      .json as { nginxConfigPath: string; adoption?: unknown };
    expect(now.nginxConfigPath).toBe(`/etc/nginx/sites-available/proxy-${site}`);
    expect(now.adoption ?? null).toBeNull();
    await page.goto('/');
    await expectHomeCard(page, site, lang, 'live', 'http');
    await screenshotScreen(page, area, '7-home-converted');
  } finally {
    const files = [site, `${site}-upstream`, `proxy-${site}`]
      .map((f) => `/etc/nginx/sites-enabled/${f}`)
      .concat(`/etc/nginx/sites-available/proxy-${site}`);
    await app.lab.exec('s3', ['sh', '-c', 'rm -f "$@" && nginx -s reload', 'sh', ...files]);
  }
}

test.describe('Sites on this server: scan, adopt as it is, convert', () => {
  test('in Spanish', async ({ page, labApp }) => {
    await signIn(page, uniqueUser('sca'), 'register');
    await scanAndAdopt(page, labApp, 'es', false);
  });

  test.describe('in English', () => {
    test.use({ locale: 'en-US' });
    test('from the browser language', async ({ page, labApp }) => {
      await signIn(page, uniqueUser('scb'), 'register');
      await scanAndAdopt(page, labApp, 'en', true);
    });
  });
});
