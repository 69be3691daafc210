import { expect, type Page, test } from '@playwright/test';
import { signIn } from './fixtures/auth';
import { type TLang, text } from './fixtures/catalog';
import { saveUndeployedProxy } from './fixtures/lab-api';
import { chooseLanguage } from './fixtures/ui';
import { uniqueUser } from './fixtures/users';
import { capture } from './fixtures/wizard';

// Home's list in pages (docs/PRODUCT.md#lists-in-pages): 30 proxies make two pages of 24; the
// search, a filter chip and the page live in the address, so a reload and the back button show
// the same view; a read on focus keeps the page's order while proxies are added; keyboard only
// for the search and the chips; 1280 and 390 px, in both languages.
const AREA = 'proxy-pages';
const SEEDED = 30;
const PAGE_SIZE = 24;
/** Of the 30, the ones whose domain holds "shop". */
const SHOPS = 3;

const cards = (page: Page) => page.getByTestId('proxy-card');
const cardIds = (page: Page) =>
  cards(page).evaluateAll((all) => all.map((card) => card.getAttribute('data-proxy-id')));
const pageNumber = (page: Page) => page.getByTestId('page-number');

async function seed(page: Page, tag: string): Promise<void> {
  for (let i = 0; i < SEEDED; i++) {
    const name = i < SHOPS ? `shop${i}` : `site${i}`;
    await saveUndeployedProxy(page.request, `${name}-${tag}.example.test`);
  }
}

for (const lang of ['en', 'es'] as const satisfies TLang[]) {
  test(`${lang}: pages, search, a filter chip and the address that keeps them`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const user = uniqueUser('pag');
    await signIn(page, user, 'register');
    const tag = user.username.replace(/_/g, '-');
    await seed(page, tag);
    await page.goto('/');
    if (lang === 'en') await chooseLanguage(page, 'es', 'en');

    // The first page: 24 cards, the total, chips with their counts, a page of few DOM nodes.
    await expect(cards(page)).toHaveCount(PAGE_SIZE);
    await expect(page.getByTestId('proxy-total')).toHaveText(`(${SEEDED})`);
    await expect(pageNumber(page)).toHaveText(text(lang, 'lists.page', { page: 1 }));
    const all = page.getByTestId('status-chips-all');
    await expect(all).toHaveText(text(lang, 'lists.all', { count: SEEDED }));
    await expect(page.getByTestId('status-chips-pending')).toHaveText(
      text(lang, 'lists.chip', {
        label: text(lang, 'proxies.status.pending'),
        count: SEEDED,
      }),
    );
    expect(await page.evaluate(() => document.getElementsByTagName('*').length)).toBeLessThan(5000);
    await capture(page, AREA, `first-page-${lang}`);
    const firstPage = await cardIds(page);

    // The next page is a step in the address: a reload shows it, the back button leaves it.
    await page.getByTestId('page-next').click();
    await expect(cards(page)).toHaveCount(SEEDED - PAGE_SIZE);
    await expect(page).toHaveURL(/[?&]page=[A-Za-z0-9_-]+/);
    await expect(pageNumber(page)).toHaveText(text(lang, 'lists.page', { page: 2 }));
    const secondPage = await cardIds(page);
    expect(secondPage.filter((id) => firstPage.includes(id))).toEqual([]);

    // Two proxies added meanwhile, then the window regains focus: the page keeps its rows, in
    // its order (new ones land on the first page, before the cursor).
    await saveUndeployedProxy(page.request, `late1-${tag}.example.test`);
    await saveUndeployedProxy(page.request, `late2-${tag}.example.test`);
    const reread = page.waitForResponse((r) => r.url().includes('/api/user/proxy-configurations?'));
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await reread;
    await expect(page.getByTestId('proxy-total')).toHaveText(`(${SEEDED + 2})`);
    expect(await cardIds(page)).toEqual(secondPage);

    await page.reload();
    await expect(pageNumber(page)).toHaveText(text(lang, 'lists.page', { page: 2 }));
    expect(await cardIds(page)).toEqual(secondPage);
    await page.goBack();
    await expect(pageNumber(page)).toHaveText(text(lang, 'lists.page', { page: 1 }));
    await expect(cards(page).first()).toContainText(`late2-${tag}`);

    // The search, by keyboard: sent once typing pauses, in the address, kept by a reload.
    const search = page.getByLabel(text(lang, 'lists.proxies.searchLabel'));
    await search.focus();
    await page.keyboard.type('SHOP');
    await expect(page).toHaveURL(/[?&]q=SHOP/);
    await expect(cards(page)).toHaveCount(SHOPS);
    await expect(page.getByTestId('proxy-total')).toHaveText(
      `(${text(lang, 'lists.found_other', { count: SHOPS })})`,
    );
    await expect(page.getByTestId('list-pager')).toHaveCount(0);

    // A chip, by keyboard, is a step of its own; choosing it again clears it.
    const pending = page.getByTestId('status-chips-pending');
    await pending.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/status=pending/);
    await expect(pending).toHaveAttribute('aria-pressed', 'true');
    await capture(page, AREA, `search-and-chip-${lang}`);
    await page.reload();
    await expect(page.getByLabel(text(lang, 'lists.proxies.searchLabel'))).toHaveValue('SHOP');
    await expect(page.getByTestId('status-chips-pending')).toHaveAttribute('aria-pressed', 'true');
    await expect(cards(page)).toHaveCount(SHOPS);
    await page.goBack();
    await expect(page).not.toHaveURL(/status=/);
    await expect(page.getByTestId('status-chips-pending')).toHaveAttribute('aria-pressed', 'false');
    await expect(cards(page)).toHaveCount(SHOPS);

    // Nothing matching says so, and keeps the search to change.
    await search.fill('no-such-proxy-anywhere');
    await expect(page.getByTestId('proxy-list-no-match')).toContainText(
      text(lang, 'lists.proxies.noMatchTitle'),
    );
    await capture(page, AREA, `no-match-${lang}`);
  });
}
