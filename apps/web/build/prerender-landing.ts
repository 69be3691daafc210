import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';
import { precompressFile } from './precompress.ts';

// The config loads this file with Node, which cannot import the shared package's TypeScript: the
// languages come from the server-side build itself (src/prerender.tsx).
type TLanguage = string;

const ROOT_DIV = '<div id="root"></div>';
const HTML_TAG = /<html lang="[a-z]{2}">/;

/** The file the server sends as the landing page in `language` (apps/server/src/plugins/static.ts). */
export function landingFileName(language: TLanguage): string {
  return `landing-${language}.html`;
}

/**
 * The built index.html with the landing page's markup inside its root, marked with the language
 * it was rendered in (main.tsx hydrates it only when the visit resolves to that language), and
 * `<html lang>` set to it, its texts' chunk (`assets/….js`) preloaded. Throws when the template is not the one expected: a changed
 * index.html fails the build instead of shipping a page without its content.
 */
export function landingPage(
  template: string,
  language: TLanguage,
  markup: string,
  catalogChunk: string,
): string {
  if (template.split(ROOT_DIV).length !== 2)
    throw new Error(`index.html has no single ${ROOT_DIV}`);
  if (!HTML_TAG.test(template)) throw new Error('index.html has no <html lang="…">');
  if (!markup.includes('<h1')) throw new Error(`the ${language} landing page rendered no heading`);
  if (!template.includes('</head>')) throw new Error('index.html has no </head>');
  // The language's texts are the one more script the page needs before React can take it
  // over: fetched with the others, not after them.
  const preload = `<link rel="modulepreload" crossorigin href="/${catalogChunk}">`;
  return template
    .replace(HTML_TAG, `<html lang="${language}">`)
    .replace('</head>', () => `  ${preload}\n  </head>`)
    .replace(ROOT_DIV, () => `<div id="root" data-prerendered="${language}">${markup}</div>`);
}

/**
 * The server-side build of src/prerender.tsx, once written: renders the landing page in every
 * language into `clientOutDir` (beside the client build's index.html, which it starts from),
 * each with its brotli and gzip variants.
 */
export function prerenderLanding(clientOutDir: string): Plugin {
  let outDir = '';
  let dist = '';
  return {
    name: 'portico-prerender-landing',
    apply: (_config, env) => env.command === 'build' && env.isSsrBuild === true,
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      dist = resolve(config.root, clientOutDir);
    },
    async writeBundle(_options, bundle) {
      const entry = Object.values(bundle).find((file) => file.type === 'chunk' && file.isEntry);
      if (!entry) throw new Error('the prerender build has no entry chunk');
      const { renderLanding, LANDING_LANGUAGES } = (await import(
        pathToFileURL(join(outDir, entry.fileName)).href
      )) as { renderLanding: (language: TLanguage) => string; LANDING_LANGUAGES: TLanguage[] };
      const template = await readFile(join(dist, 'index.html'), 'utf8');
      const manifest = JSON.parse(
        await readFile(join(dist, '.vite', 'manifest.json'), 'utf8'),
      ) as Record<string, { file: string }>;
      const catalogChunk = (language: TLanguage) => {
        const chunk = manifest[`src/locales/${language}-catalog.ts`]?.file;
        if (!chunk) throw new Error(`no ${language} catalog in the build manifest`);
        return chunk;
      };
      await Promise.all(
        LANDING_LANGUAGES.map(async (language) => {
          const file = join(dist, landingFileName(language));
          const page = landingPage(
            template,
            language,
            renderLanding(language),
            catalogChunk(language),
          );
          await writeFile(file, page);
          await precompressFile(file);
        }),
      );
    },
  };
}
