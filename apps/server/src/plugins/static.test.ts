import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { appServingWebRoot } from '../../test/support/web-root-app';

// A web build as `vite build` leaves it: each text file with its .br and .gz beside it (the
// build's precompress step), and one small file the build left without variants.
const webRoot = mkdtempSync(join(tmpdir(), 'portico-static-compressed-'));
mkdirSync(join(webRoot, 'assets'));
const files = {
  '/index.html': `<!doctype html><title>Portico</title><div id="root"></div>${'<!-- x -->'.repeat(80)}`,
  '/assets/index-abc123.js': `export const lines = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => `line ${i}`))};`,
  '/assets/index-abc123.css': `.a{color:red}${'.b{margin:0 auto;padding:1rem}'.repeat(60)}`,
};
for (const [path, text] of Object.entries(files)) {
  const file = join(webRoot, path);
  writeFileSync(file, text);
  writeFileSync(`${file}.br`, brotliCompressSync(text));
  writeFileSync(`${file}.gz`, gzipSync(text));
}
writeFileSync(join(webRoot, 'assets', 'tiny-abc123.js'), 'x()');

const TYPES = {
  '/index.html': /^text\/html; charset=utf-8$/,
  '/assets/index-abc123.js': /^(text|application)\/javascript; charset=utf-8$/,
  '/assets/index-abc123.css': /^text\/css; charset=utf-8$/,
};
const decode = { br: brotliDecompressSync, gzip: gunzipSync } as const;

describe('static files, compressed at build', () => {
  const web = appServingWebRoot(webRoot);

  const get = (url: string, acceptEncoding?: string, accept = '*/*') =>
    web().app.inject({
      url,
      headers: { accept, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
    });

  it.each([
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip', 'gzip'],
    ['deflate, gzip;q=0.1', 'gzip'],
  ] as const)(
    'Accept-Encoding "%s" gets %s, the same bytes once decoded, with its length and type',
    async (acceptEncoding, encoding) => {
      for (const [url, text] of Object.entries(files)) {
        const response = await get(url, acceptEncoding);
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['content-encoding'], url).toBe(encoding);
        expect(response.headers['content-type'], url).toMatch(TYPES[url as keyof typeof TYPES]);
        expect(response.headers.vary, url).toMatch(/accept-encoding/i);
        expect(Number(response.headers['content-length']), url).toBe(response.rawPayload.length);
        expect(response.rawPayload.length, url).toBeLessThan(Buffer.byteLength(text));
        expect(decode[encoding](response.rawPayload).toString('utf8'), url).toBe(text);
      }
    },
  );

  it('sends the file as it is to a client that accepts no compression', async () => {
    for (const acceptEncoding of [undefined, 'identity', 'zstd']) {
      for (const [url, text] of Object.entries(files)) {
        const response = await get(url, acceptEncoding);
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['content-encoding'], url).toBeUndefined();
        expect(response.headers.vary, url).toMatch(/accept-encoding/i);
        expect(response.body, url).toBe(text);
      }
    }
  });

  it('caches hashed assets for a year and revalidates index.html, whatever the encoding', async () => {
    for (const acceptEncoding of [undefined, 'gzip', 'br']) {
      for (const url of ['/assets/index-abc123.js', '/assets/index-abc123.css']) {
        const response = await get(url, acceptEncoding);
        expect(response.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
      }
      expect((await get('/index.html', acceptEncoding)).headers['cache-control']).toBe('no-cache');
    }
  });

  it('gives each encoding its own ETag, so a cached copy of one never answers for another', async () => {
    const url = '/assets/index-abc123.js';
    const tags = await Promise.all(
      [undefined, 'gzip', 'br'].map(async (e) => (await get(url, e)).headers.etag),
    );
    expect(new Set(tags).size).toBe(3);
    const otherEncoding = await web().app.inject({
      url,
      headers: { 'accept-encoding': 'gzip', 'if-none-match': String(tags[2]) },
    });
    expect(otherEncoding.statusCode).toBe(200);
    expect(gunzipSync(otherEncoding.rawPayload).toString('utf8')).toBe(files[url]);
  });

  it('serves the web app at any page path compressed, with the same HTML once decoded', async () => {
    for (const url of ['/', '/home', '/proxy-wizard']) {
      const response = await get(url, 'br, gzip', 'text/html');
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.headers.vary, url).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(response.rawPayload).toString('utf8'), url).toBe(
        files['/index.html'],
      );
    }
  });

  it('sends a file the build left without variants as it is', async () => {
    const response = await get('/assets/tiny-abc123.js', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe('x()');
  });

  it('does not serve the variants as files of their own', async () => {
    for (const url of ['/assets/index-abc123.js.br', '/assets/index-abc123.css.gz']) {
      const response = await get(url, 'br, gzip', 'application/json');
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/application\/json/);
    }
  });
});
