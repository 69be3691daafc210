import type { Page } from '@playwright/test';
import { signIn } from './fixtures/auth';
import { type TLang, text } from './fixtures/catalog';
import { api } from './fixtures/lab-api';
import { expect, fetchSite, type TLabApp, test } from './fixtures/lab-app';
import { watchBrowserTraffic } from './fixtures/secret-watch';
import { uniqueUser } from './fixtures/users';
import { capture, expectStep } from './fixtures/wizard';

// The wizard on a saved, key-only server (lab s5: PasswordAuthentication no): the user saves the
// server with a key Portico generates, adds its public key on the server as they would (here the
// lab's own root access appends it), then chooses the server in the wizard's first step. No
// credential is typed in the browser, and the site ends live over HTTPS.

async function savedKeyServer(page: Page, app: TLabApp, name: string): Promise<string> {
  const s5 = app.server('s5');
  const created = await api(page.request, 'POST', '/api/ssh-servers', {
    name,
    host: s5.address,
    username: 'root',
    authKind: 'key',
    generateKey: true,
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  const script =
    'install -d -m 700 /root/.ssh && cat >> /root/.ssh/authorized_keys && chmod 600 /root/.ssh/authorized_keys';
  const done = await app.lab.exec('s5', ['sh', '-c', script], `${created.json.publicKey}\n`);
  expect(done.code, done.stderr).toBe(0);
  return created.json.id as string;
}

async function wizardOnSavedServer(page: Page, app: TLabApp, lang: TLang, domain: string) {
  const s5 = app.server('s5');
  const area = `wizard-saved-server-${lang}`;
  const name = `key-only-${lang}`;
  const received = watchBrowserTraffic(page);
  await savedKeyServer(page, app, name);

  await test.step('step one offers the saved server first; choosing it hides every credential', async () => {
    await page.goto('/proxy-wizard');
    await expectStep(page, 'server-info');
    const choice = page.getByTestId('wizard-server-choice');
    await expect(choice).toContainText(text(lang, 'servers.wizard.legend'));
    await expect(choice).toContainText(text(lang, 'servers.wizard.new'));
    await page.getByRole('radio', { name: new RegExp(name) }).check();
    await expect(page.locator('#wizard-ssh-password')).toHaveCount(0);
    await expect(page.locator('#wizard-server-ip')).toHaveCount(0);
    await page.locator('#wizard-domain').fill(domain);
    await expect(page.getByTestId('wizard-email')).toHaveValue(`admin@${domain}`);
    await capture(page, area, '1-saved-server');
    await page.getByTestId('wizard-next').click();
  });

  await test.step('DNS against the saved server’s address, SSH with its key', async () => {
    await expectStep(page, 'dns-validation');
    await expect(page.getByTestId('wizard-dns')).toHaveAttribute('data-status', 'verified');
    await expect(page.getByTestId('wizard-ssh')).toHaveAttribute('data-status', 'verified');
    await expect(page.getByTestId('wizard-ssh-fingerprint')).toHaveText(s5.hostKeyFingerprint);
    await capture(page, area, '2-validation');
    await page.getByTestId('wizard-next').click();
  });

  await test.step('destination, deploy, complete', async () => {
    await expectStep(page, 'destination');
    await page.locator('#wizard-destination-manual').check();
    await page.locator('#wizard-manual-endpoint').fill(app.upstream);
    await page.getByTestId('wizard-next').click();
    await expectStep(page, 'deploy');
    await page.getByTestId('wizard-deploy-start').click();
    await expectStep(page, 'complete', 90_000);
    await expect(page.getByTestId('wizard-complete-url')).toHaveText(`https://${domain}`);
    await capture(page, area, '3-complete');
  });

  await test.step('the site is live over HTTPS with a Pebble certificate', async () => {
    const answer = await fetchSite(app, s5.address, domain);
    expect(answer.status).toBe(200);
    expect(answer.issuer).toMatch(/Pebble/i);
  });

  await test.step('no private key reached the browser', async () => {
    // Every OpenSSH private key's body begins with the base64 of "openssh-key-v1".
    expect(await received.hits('private key', 'b3BlbnNzaC1rZXktdjE')).toEqual([]);
  });
}

test.describe('the wizard on a saved key-only server', () => {
  test('in Spanish', async ({ page, labApp }) => {
    await signIn(page, uniqueUser('ksa'), 'register');
    await wizardOnSavedServer(page, labApp, 'es', labApp.server('s5').domains[0] as string);
  });

  test.describe('in English', () => {
    test.use({ locale: 'en-US' });
    test('from the browser language', async ({ page, labApp }) => {
      await signIn(page, uniqueUser('ksb'), 'register');
      await wizardOnSavedServer(page, labApp, 'en', labApp.server('s5').domains[2] as string);
    });
  });
});
