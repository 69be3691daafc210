import { readdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text formats worth compressing; images and fonts of the build are compressed already. */
const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.svg', '.json', '.txt', '.webmanifest']);

export type TCompressed = { file: string; bytes: number; br?: number; gzip?: number };

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries
      // Dot directories (.vite holds the manifest) are never served.
      .filter((e) => !e.name.startsWith('.'))
      .map((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)])),
  );
  return nested.flat();
}

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip, level 9) beside every text
 * file under `dir`, made once here so the server never compresses at request time. A variant
 * that would not be smaller than the file is not written (the server then sends the file).
 */
export async function precompressDir(dir: string): Promise<TCompressed[]> {
  const files = (await filesUnder(dir)).filter((f) => COMPRESSIBLE.has(extname(f)));
  return Promise.all(files.map(precompressFile));
}

/** Writes `<file>.br` and `<file>.gz` beside `file`, each only if smaller than the file. */
export async function precompressFile(file: string): Promise<TCompressed> {
  const content = await readFile(file);
  const [br, gzipped] = await Promise.all([
    brotli(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }),
    gz(content, { level: 9 }),
  ]);
  const result: TCompressed = { file, bytes: content.length };
  if (br.length < content.length) {
    await writeFile(`${file}.br`, br);
    result.br = br.length;
  }
  if (gzipped.length < content.length) {
    await writeFile(`${file}.gz`, gzipped);
    result.gzip = gzipped.length;
  }
  return result;
}

/** Vite plugin: after the build is written, precompress its output directory. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'portico-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}
