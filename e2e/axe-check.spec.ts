import { expect, test } from '@playwright/test';
import { expectAccessible } from './fixtures/axe';

// The accessibility check every screen goes through (fixtures/axe.ts) must itself see what it is
// there to see: serious or critical findings fail it, named, before and after the page it runs
// on is replaced (axe is put in once per document).
test('the accessibility check fails on an image without text and on unreadable contrast, and passes a clean page', async ({
  page,
}) => {
  const flawed = `<html lang="en"><head><title>flawed</title></head><body><main>
    <h1>Title</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
    <p style="color:#777;background:#888">faint words</p></main></body></html>`;
  const clean = `<html lang="en"><head><title>clean</title></head><body><main>
    <h1>Title</h1><p>plain words</p></main></body></html>`;
  await page.goto('/');
  await page.setContent(flawed);
  await expect(expectAccessible(page, 'check-flawed')).rejects.toThrow(
    /image-alt[\s\S]*color-contrast|color-contrast[\s\S]*image-alt/,
  );
  await page.setContent(clean);
  await expectAccessible(page, 'check-clean');
  // A new document: the check puts axe in again and still sees the flaw.
  await page.goto('/');
  await page.setContent(flawed);
  await expect(expectAccessible(page, 'check-flawed-again')).rejects.toThrow(/image-alt/);
});
