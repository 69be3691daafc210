import type { Page } from '@playwright/test';
import { signIn } from './fixtures/auth';
import { type TLang, text } from './fixtures/catalog';
import { expect, fetchSite, type TLabApp, test } from './fixtures/lab-app';
import { watchBrowserTraffic } from './fixtures/secret-watch';
import { chooseLanguage } from './fixtures/ui';
import { uniqueUser } from './fixtures/users';
import { capture, expectStep, fillServerInfo } from './fixtures/wizard';

// The wizard's DNS-01 path (issue 41) on the lab with bind9: a wildcard typed in step one takes
// DNS-01 and says why, the DNS step says port 80 is not needed and checks the sample name, the
// provider's fields are refused in the user's language until they are right, the credentials go
// to the server before the run, and the site serves two subdomains with a Pebble certificate.
// The proxy's certificate section then says "DNS-01 via RFC 2136", never the credentials, and
// replaces them write-only. The English walk stops before deploying (one run per spec).

function dns01(app: TLabApp) {
  const d = app.lab.status.dns01;
  if (!d) throw new Error('the e2e lab has no DNS-01 zone');
  return d;
}

/** Step one with `domain` on `server`, then the DNS step's method card, DNS-01 chosen. */
async function toDnsStep(page: Page, app: TLabApp, lang: TLang, server: string, domain: string) {
  await page.goto('/proxy-wizard');
  await expectStep(page, 'server-info');
  await fillServerInfo(page, lang, {
    serverIp: app.server(server).address,
    domain,
    password: app.rootPassword(server),
  });
  await page.getByTestId('wizard-next').click();
  await expectStep(page, 'dns-validation');
  return page.getByTestId('wizard-certificate-method');
}

async function fillRfc2136(page: Page, app: TLabApp, secret: string) {
  const d = dns01(app);
  await page.getByTestId('dns-provider').selectOption('rfc2136');
  await page.getByTestId('dns-field-server').fill(d.server);
  await page.getByTestId('dns-field-port').fill(String(d.port));
  await page.getByTestId('dns-field-keyName').fill(d.keyName);
  await page.getByTestId('dns-field-algorithm').selectOption('HMAC-SHA256');
  await page.getByTestId('dns-field-secret').fill(secret);
}

test('a wildcard through the wizard by DNS-01, in Spanish, then its certificate section', async ({
  page,
  labApp,
}) => {
  test.setTimeout(240_000);
  const area = 'wizard-dns01-es';
  const zone = `s2.${dns01(labApp).zone}`;
  const domain = `*.${zone}`;
  const secret = dns01(labApp).secret;
  await signIn(page, uniqueUser('dna'), 'register');
  const received = watchBrowserTraffic(page);
  let id = '';

  await test.step('step one takes the wildcard and says it goes by DNS-01', async () => {
    await page.goto('/proxy-wizard');
    await page.locator('#wizard-domain').fill(domain);
    await expect(page.getByTestId('wizard-wildcard-note')).toHaveText(
      text('es', 'certificate.dns.wizard.wildcardNote'),
    );
    // The certificate e-mail goes to the domain under the wildcard.
    await page.locator('#wizard-server-ip').fill(labApp.server('s2').address);
    await expect(page.getByTestId('wizard-email')).toHaveValue(`admin@${zone}`);
    await capture(page, area, '1-wildcard');
  });

  await test.step('the DNS step: DNS-01 only, why, the sample name checked, fields refused until right', async () => {
    const card = await toDnsStep(page, labApp, 'es', 's2', domain);
    await expect(card).toHaveAttribute('data-method', 'dns-01');
    await expect(page.getByTestId('wizard-method-http-01')).toBeDisabled();
    await expect(page.getByTestId('wizard-wildcard-why')).toHaveText(
      text('es', 'certificate.dns.wizard.wildcardWhy', { domain }),
    );
    await expect(page.getByTestId('wizard-dns01-note')).toHaveText(
      text('es', 'certificate.dns.wizard.checkNote', { name: `portico-check.${zone}` }),
    );
    await expect(page.getByTestId('wizard-dns')).toHaveAttribute('data-status', 'verified');
    await expect(page.getByTestId('wizard-ssh')).toHaveAttribute('data-status', 'verified');
    await fillRfc2136(page, labApp, 'not base64!');
    await page.getByTestId('wizard-next').click();
    await expect(page.locator('#wizard-dns-secret-error')).toHaveText(
      text('es', 'validation.dns01.secretBase64'),
    );
    await expectStep(page, 'dns-validation');
    await capture(page, area, '2-dns-step-refused');
    await page.getByTestId('dns-field-secret').fill(secret);
    await expect(page.locator('#wizard-dns-secret-error')).toHaveCount(0);
    await page.getByTestId('wizard-next').click();
  });

  await test.step('destination, deploy (credentials stored first), complete', async () => {
    await expectStep(page, 'destination');
    await page.locator('#wizard-destination-manual').check();
    await page.locator('#wizard-manual-endpoint').fill(labApp.upstream);
    await page.getByTestId('wizard-next').click();
    await expectStep(page, 'deploy');
    const stored = page.waitForResponse(
      (r) => r.request().method() === 'PUT' && r.url().endsWith('/certificate/dns'),
    );
    const started = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().includes('/api/deploy/'),
    );
    await page.getByTestId('wizard-deploy-start').click();
    const put = await stored;
    expect(put.status()).toBe(200);
    id = put.url().split('/').at(-3) ?? '';
    expect((await started).status()).toBe(202);
    await expectStep(page, 'complete', 150_000);
    await capture(page, area, '3-complete');
  });

  await test.step('two subdomains are served with the Pebble wildcard', async () => {
    for (const name of [`a.${zone}`, `b.${zone}`]) {
      const answer = await fetchSite(labApp, labApp.server('s2').address, name);
      expect(answer.status, name).toBe(200);
      expect(answer.issuer).toMatch(/Pebble/i);
    }
  });

  await test.step('the certificate section says DNS-01 via the provider and replaces write-only', async () => {
    await page.goto(`/proxy-details/${id}`);
    const section = page.getByTestId('dns-challenge');
    await expect(page.getByTestId('dns-challenge-method')).toHaveText(
      text('es', 'certificate.dns.via', {
        provider: text('es', 'certificate.dns.providerName.rfc2136'),
      }),
    );
    await expect(section.getByTestId('dns-challenge-remove')).toHaveCount(0);
    await expect(page.getByTestId('dns-challenge-wildcard')).toHaveText(
      text('es', 'certificate.dns.wildcardOnly'),
    );
    await section.scrollIntoViewIfNeeded();
    await capture(page, area, '4-certificate-section');
    await chooseLanguage(page, 'es', 'en');
    await page.getByTestId('dns-challenge-open').click();
    const form = page.getByTestId('dns-challenge-form');
    await expect(form.getByTestId('dns-field-secret')).toHaveValue('');
    await form.getByTestId('dns-field-server').fill('ns.example.com');
    await form.getByTestId('dns-field-keyName').fill(dns01(labApp).keyName);
    await form.getByTestId('dns-field-secret').fill(secret);
    await form.getByTestId('dns-challenge-save').click();
    await expect(form.locator('#proxy-dns-server-error')).toHaveText(
      text('en', 'validation.dns01.serverAddress'),
    );
    await capture(page, 'wizard-dns01-en', '5-replace-refused');
    await form.getByTestId('dns-field-server').fill(dns01(labApp).server);
    await form.getByTestId('dns-challenge-save').click();
    await expect(form).toHaveCount(0);
    await expect(
      page.getByText(text('en', 'certificate.dns.saved'), { exact: true }),
    ).toBeVisible();
  });

  await test.step('the TSIG secret never came back to the browser', async () => {
    await page.reload();
    await expect(page.getByTestId('dns-challenge')).toBeVisible();
    expect(await received.hits('TSIG secret', secret)).toEqual([]);
  });
});

test.describe('in English', () => {
  test.use({ locale: 'en-US' });
  test('DNS-01 chosen for a plain name: the note, the fields refused, back again', async ({
    page,
    labApp,
  }) => {
    const area = 'wizard-dns01-en';
    const domain = `s1.${dns01(labApp).zone}`;
    await signIn(page, uniqueUser('dnb'), 'register');
    const card = await toDnsStep(page, labApp, 'en', 's1', domain);
    await expect(card).toHaveAttribute('data-method', 'http-01');
    await expect(page.getByTestId('wizard-dns01-note')).toHaveCount(0);
    await page.getByTestId('wizard-method-dns-01').check();
    await expect(page.getByTestId('wizard-dns01-note')).toHaveText(
      text('en', 'certificate.dns.wizard.checkNote', { name: domain }),
    );
    await expect(page.getByTestId('wizard-dns')).toHaveAttribute('data-status', 'verified');
    await expect(page.getByTestId('wizard-ssh')).toHaveAttribute('data-status', 'verified');
    await page.getByTestId('dns-provider').selectOption('cloudflare');
    await page.getByTestId('dns-field-apiToken').fill('too short');
    await page.getByTestId('wizard-next').click();
    await expect(page.locator('#wizard-dns-apiToken-error')).toHaveText(
      text('en', 'validation.dns01.apiToken'),
    );
    await expectStep(page, 'dns-validation');
    await capture(page, area, '2-dns-step-refused');
    // Back to HTTP-01: the fields go and the wizard goes on.
    await page.getByTestId('wizard-method-http-01').check();
    await expect(page.getByTestId('dns-challenge-fields')).toHaveCount(0);
    await page.getByTestId('wizard-next').click();
    await expectStep(page, 'destination');
  });
});
