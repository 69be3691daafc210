import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { appServingWebRoot } from '../../test/support/web-root-app';

// A web build as `npm run build` leaves it: index.html, the landing page rendered in each
// language beside it (apps/web/build/prerender-landing.ts), each with its compressed variants,
// and the server-side build in a dot directory.
const webRoot = mkdtempSync(join(tmpdir(), 'portico-static-landing-'));
const page = (marker: string) =>
  `<!doctype html><div id="root">${marker}</div>${'<!-- x -->'.repeat(80)}`;
const files: Record<string, string> = {
  'index.html': page(''),
  'landing-es.html': page('<h1>landing es</h1>'),
  'landing-en.html': page('<h1>landing en</h1>'),
};
for (const [name, text] of Object.entries(files)) {
  writeFileSync(join(webRoot, name), text);
  writeFileSync(join(webRoot, `${name}.br`), brotliCompressSync(text));
  writeFileSync(join(webRoot, `${name}.gz`), gzipSync(text));
}
mkdirSync(join(webRoot, '.prerender'));
writeFileSync(join(webRoot, '.prerender', 'prerender.js'), 'export const secret = 1;');

describe('the home page of a visitor without a session: the landing page, already rendered', () => {
  const web = appServingWebRoot(webRoot);

  const get = (url: string, headers: Record<string, string> = {}) =>
    web().app.inject({ url, headers: { accept: 'text/html', ...headers } });

  it.each([
    [{}, 'es'],
    [{ 'accept-language': 'en-GB,en;q=0.9' }, 'en'],
    [{ 'accept-language': 'fr-FR,fr;q=0.9' }, 'es'],
    [{ 'accept-language': 'fr-FR,en;q=0.8,es;q=0.5' }, 'en'],
    [{ 'accept-language': 'es', cookie: 'portico.lang=en' }, 'en'],
    [{ 'accept-language': 'en', cookie: 'portico.lang=es' }, 'es'],
    // A cookie that is no language of ours is ignored: Accept-Language decides.
    [{ 'accept-language': 'en', cookie: 'portico.lang=..%2Findex' }, 'en'],
    [{ 'accept-language': 'en', cookie: 'portico.lang=de' }, 'en'],
  ])('%j gets the %s page, revalidated, varying on language and cookie', async (headers, lang) => {
    for (const url of ['/', '/?from=mail']) {
      const response = await get(url, headers);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain(`<h1>landing ${lang}</h1>`);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers.vary).toBe('accept-encoding, accept-language, cookie');
    }
  });

  it('is sent compressed when the browser accepts it, the same bytes once decoded', async () => {
    const response = await get('/', { 'accept-encoding': 'br', 'accept-language': 'en' });
    expect(response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(files['landing-en.html']);
  });

  it('with a session cookie the home page is the empty app page (maybe signed in)', async () => {
    const response = await get('/', { cookie: 'portico.sid=whatever', 'accept-language': 'en' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(files['index.html']);
    expect(response.headers.vary).toBe('accept-encoding');
  });

  it('every other path is the empty app page, signed in or not', async () => {
    for (const url of ['/home', '/settings', '/no-such-page']) {
      const response = await get(url, { 'accept-language': 'en' });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(files['index.html']);
    }
  });

  it('the prerendered pages and the server-side build are no addresses of their own', async () => {
    for (const url of ['/landing-es.html', '/landing-en.html', '/.prerender/prerender.js']) {
      const response = await get(url, { accept: '*/*' });
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toMatchObject({ code: 'not_found' });
    }
    // A browser asking for them gets the app's page, which shows "not found" itself.
    expect((await get('/landing-en.html')).body).toBe(files['index.html']);
  });
});

describe('a build without prerendered landing pages', () => {
  const oldRoot = mkdtempSync(join(tmpdir(), 'portico-static-no-landing-'));
  writeFileSync(join(oldRoot, 'index.html'), files['index.html']!);
  writeFileSync(join(oldRoot, 'landing-es.html'), files['landing-es.html']!);
  const web = appServingWebRoot(oldRoot);

  it('serves index.html on the home page, in every language', async () => {
    for (const language of ['es', 'en']) {
      const response = await web().app.inject({
        url: '/',
        headers: { accept: 'text/html', 'accept-language': language },
      });
      expect(response.body).toBe(files['index.html']);
    }
  });
});
