import { expect, test } from '@playwright/test';
import { createTestPki } from '../apps/server/test/support/test-pki';
import { signIn } from './fixtures/auth';
import { text } from './fixtures/catalog';
import { saveUndeployedProxy } from './fixtures/lab-api';
import { chooseLanguage } from './fixtures/ui';
import { uniqueUser } from './fixtures/users';
import { capture } from './fixtures/wizard';

// Your own certificate on the proxy's page (issue 41): a refusal of the server shown in the
// user's language (and again in the other after a switch), a file over the size limit refused
// before anything is sent, an upload shown, replaced and removed after a confirmation; 1280 and
// 390 px, in both languages.
const AREA = 'uploaded-certificate';
const DAY = 24 * 60 * 60 * 1000;
const pki = createTestPki();
test.afterAll(() => pki.remove());

test('upload, refuse, replace and remove your own certificate, in es and en', async ({ page }) => {
  test.setTimeout(120_000);
  const user = uniqueUser('upl');
  await signIn(page, user, 'register');
  const domain = `${user.username.replace(/_/g, '-')}.example.test`;
  const id = await saveUndeployedProxy(page.request, domain);
  const leaf = () =>
    pki.leaf({
      names: [domain],
      from: new Date(Date.now() - DAY),
      to: new Date(Date.now() + 60 * DAY),
    });
  let uploads = 0;
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().endsWith('/certificate/custom')) uploads += 1;
  });

  await page.goto(`/proxy-details/${id}`);
  const box = page.getByTestId('certificate-upload');
  await expect(box).toContainText(text('es', 'certificate.upload.title'));
  await capture(page, AREA, 'none-es');
  await box.getByTestId('upload-open').click();

  // A key where the chain goes: the server's refusal, in Spanish, then in English.
  const first = leaf();
  await box.getByTestId('upload-certificate').fill(first.key);
  await box.getByTestId('upload-privateKey').fill(first.key);
  await box.getByTestId('upload-submit').click();
  const problem = box.getByTestId('upload-problem');
  await expect(problem).toHaveText(text('es', 'certificates.upload.keyInChain'));
  await capture(page, AREA, 'refused-es');
  await chooseLanguage(page, 'es', 'en');
  await expect(problem).toHaveText(text('en', 'certificates.upload.keyInChain'));
  await capture(page, AREA, 'refused-en');

  // A file over the limit never leaves the browser.
  const sent = uploads;
  await box.getByTestId('upload-certificate-file').setInputFiles({
    name: 'huge.pem',
    mimeType: 'text/plain',
    buffer: Buffer.alloc(300 * 1024, 'A'),
  });
  await expect(problem).toHaveText(
    text('en', 'certificate.upload.tooLarge', {
      field: text('en', 'certificate.upload.certificate'),
      kib: 256,
    }),
  );
  expect(uploads).toBe(sent);

  // A good pair, the chain from a file: shown with what the server read from it.
  await box.getByTestId('upload-certificate-file').setInputFiles({
    name: 'chain.pem',
    mimeType: 'text/plain',
    buffer: Buffer.from(`${first.cert}${pki.caPem}`),
  });
  await expect(problem).toHaveCount(0);
  await box.getByTestId('upload-privateKey').fill(first.key);
  await box.getByTestId('upload-submit').click();
  const shown = box.getByTestId('uploaded-certificate');
  await expect(shown).toContainText(domain);
  await expect(shown).toContainText('Portico Test CA');
  await expect(box).toContainText(text('en', 'certificate.upload.inUse'));
  await expect(
    page.getByText(text('en', 'certificate.upload.saved'), { exact: true }),
  ).toBeVisible();
  await capture(page, AREA, 'uploaded-en');
  const firstPrint = await shown.locator('code').textContent();

  // Replaced by the same form.
  await box.getByTestId('upload-open').click();
  const second = leaf();
  await box.getByTestId('upload-certificate').fill(second.cert);
  await box.getByTestId('upload-privateKey').fill(second.key);
  await box.getByTestId('upload-submit').click();
  await expect(shown.locator('code')).not.toHaveText(firstPrint ?? '');
  await chooseLanguage(page, 'en', 'es');
  await expect(box).toContainText(text('es', 'certificate.upload.inUse'));
  await capture(page, AREA, 'uploaded-es');

  // Removed after the confirmation; cancelling keeps it.
  await box.getByTestId('upload-remove').click();
  await expect(page.getByTestId('upload-remove-dialog')).toContainText(
    text('es', 'certificate.upload.removeConfirm.description'),
  );
  await capture(page, AREA, 'remove-confirm-es');
  await page.getByRole('button', { name: text('es', 'proxies.dialog.cancel') }).click();
  await expect(shown).toBeVisible();
  await box.getByTestId('upload-remove').click();
  await page.getByTestId('upload-remove-confirm').click();
  await expect(shown).toHaveCount(0);
  await expect(box).toContainText(text('es', 'certificate.upload.description'));
  const status = await page.request.get(`/api/proxy-configurations/${id}/certificate`);
  expect((await status.json()).uploaded).toBeNull();
});
