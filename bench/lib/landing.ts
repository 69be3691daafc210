import { request } from 'node:http';
import type { Browser, Page } from '@playwright/test';

/** What one first visit of a landing page cost, as Chromium saw it. */
export interface TVisit {
  /** Largest Contentful Paint, ms after navigation start. */
  lcpMs: number;
  /** Response bodies as transferred (compressed when the server compressed them). */
  jsBytes: number;
  cssBytes: number;
  htmlBytes: number;
  jsUrls: string[];
  /** When the last script or stylesheet had arrived (the texts' chunk included), ms. */
  assetsInMs: number;
}

const VIEWPORT = { width: 1280, height: 800 };

/** Opens the page and waits until its h1 shows and two more frames were painted. */
async function openLanding(page: Page, url: string): Promise<void> {
  // Not 'networkidle': the signed-out session answer (401) is never read to the end, so Chromium
  // counts it as in flight.
  await page.goto(url, { waitUntil: 'load' });
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
      ),
  );
}

/**
 * One visit in a fresh browser context (empty cache, no cookies, Spanish browser): once the page
 * shows its h1, reads the last LCP entry and the transferred sizes from Resource Timing.
 */
export async function visitLanding(browser: Browser, url: string): Promise<TVisit> {
  const context = await browser.newContext({ viewport: VIEWPORT, locale: 'es-ES' });
  try {
    const page = await context.newPage();
    await openLanding(page, url);
    // Only values come back from the page: tsx names functions declared in page code with a
    // helper the page does not have.
    const seen = await page.evaluate(async () => ({
      lcpMs: await new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          resolve(list.getEntries().at(-1)!.startTime);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
      htmlBytes: (performance.getEntriesByType('navigation')[0] as PerformanceResourceTiming)
        .encodedBodySize,
      resources: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
        (r) => ({ url: r.name, bytes: r.encodedBodySize, endMs: r.responseEnd }),
      ),
    }));
    const ofType = (ext: string) =>
      seen.resources.filter((r) => new URL(r.url).pathname.endsWith(ext));
    const total = (ext: string) => ofType(ext).reduce((sum, r) => sum + r.bytes, 0);
    const assets = [...ofType('.js'), ...ofType('.css')];
    return {
      lcpMs: seen.lcpMs,
      jsBytes: total('.js'),
      cssBytes: total('.css'),
      htmlBytes: seen.htmlBytes,
      jsUrls: ofType('.js').map((r) => r.url),
      assetsInMs: Math.max(0, ...assets.map((r) => r.endMs)),
    };
  } finally {
    await context.close();
  }
}

/**
 * The landing page as Chromium rendered it, without its scripts: the floor serves this text as
 * static HTML with the same stylesheet.
 */
export async function landingSnapshot(browser: Browser, url: string): Promise<string> {
  const context = await browser.newContext({ viewport: VIEWPORT, locale: 'es-ES' });
  try {
    const page = await context.newPage();
    await openLanding(page, url);
    return await page.evaluate(() => {
      const copy = document.documentElement.cloneNode(true) as HTMLElement;
      for (const el of copy.querySelectorAll('script, link[rel="modulepreload"]')) el.remove();
      return `<!doctype html>\n${copy.outerHTML}`;
    });
  } finally {
    await context.close();
  }
}

/** Body bytes of a GET with the given Accept-Encoding, as sent (not decoded). */
export function bytesOnTheWire(url: string, acceptEncoding: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () =>
        res.statusCode === 200 ? resolve(bytes) : reject(new Error(`${url}: ${res.statusCode}`)),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
