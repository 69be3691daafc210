import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('precompressDir', () => {
  it('writes brotli and gzip beside each text file, each decompressing to the same bytes', async () => {
    dir = mkdtempSync(join(tmpdir(), 'portico-precompress-'));
    mkdirSync(join(dir, 'assets'));
    const js = `export const texts = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `line ${i}`))};`;
    writeFileSync(join(dir, 'assets', 'app-abc123.js'), js);
    writeFileSync(join(dir, 'index.html'), `<!doctype html>${'<p>Portico</p>'.repeat(50)}`);
    await precompressDir(dir);
    for (const file of [join(dir, 'assets', 'app-abc123.js'), join(dir, 'index.html')]) {
      const original = readFileSync(file);
      const br = readFileSync(`${file}.br`);
      const gz = readFileSync(`${file}.gz`);
      expect(br.length).toBeLessThan(original.length);
      expect(gz.length).toBeLessThan(original.length);
      expect(brotliDecompressSync(br).equals(original)).toBe(true);
      expect(gunzipSync(gz).equals(original)).toBe(true);
    }
  });

  it('leaves binary formats, dot directories and variants that would not be smaller alone', async () => {
    dir = mkdtempSync(join(tmpdir(), 'portico-precompress-'));
    mkdirSync(join(dir, '.vite'));
    writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify({ a: 'b'.repeat(500) }));
    writeFileSync(join(dir, 'logo.png'), Buffer.alloc(2000));
    writeFileSync(join(dir, 'tiny.js'), '1');
    const written = await precompressDir(dir);
    expect(written).toEqual([{ file: join(dir, 'tiny.js'), bytes: 1 }]);
    for (const file of ['.vite/manifest.json', 'logo.png', 'tiny.js']) {
      expect(existsSync(join(dir, `${file}.br`)), file).toBe(false);
      expect(existsSync(join(dir, `${file}.gz`)), file).toBe(false);
    }
  });
});
