import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import {
  isLanguage,
  LANGUAGE_COOKIE,
  SUPPORTED_LANGUAGES,
  type TLanguage,
} from '@portico/shared/i18n/language';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import { SESSION_COOKIE } from '../modules/sessions/session-info';
import { sendError } from './errors';

/** Paths that never fall back to the web app: they answer JSON (or are protocol endpoints). */
const NON_SPA = /^\/(api|ws|healthz|readyz)(\/|$|\?)/;

function isHomePage(request: FastifyRequest): boolean {
  return request.url === '/' || request.url.startsWith('/?');
}

function wantsHtml(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (NON_SPA.test(request.url)) return false;
  // The home page answers any client (curl, uptime checks); deeper paths only browsers.
  if (isHomePage(request)) return true;
  return (request.headers.accept ?? '').includes('text/html');
}

/** The build's landing page already rendered in each language (apps/web/build/prerender-landing.ts). */
const landingFile = (language: TLanguage) => `landing-${language}.html`;

/**
 * The home page of a visitor without a session is the landing page, sent already rendered (the
 * web app takes it over once its scripts run). With a session cookie the visitor may be signed
 * in: the app's empty page, as for every other path, so nothing signed-out flashes first.
 */
function prerenderedLanding(request: FastifyRequest): string | null {
  if (!isHomePage(request) || request.cookies[SESSION_COOKIE] !== undefined) return null;
  const chosen = request.cookies[LANGUAGE_COOKIE];
  const language = isLanguage(chosen) ? chosen : request.language;
  return landingFile(language);
}

export interface TStaticPluginOptions {
  /** The built web app (apps/web/dist); when missing only the API is served. */
  root: string | undefined;
}

async function staticPlugin(app: FastifyInstance, options: TStaticPluginOptions) {
  const root = options.root && existsSync(join(options.root, 'index.html')) ? options.root : null;
  // A build without them (an older one) serves index.html on the home page too.
  const landings =
    root !== null && SUPPORTED_LANGUAGES.every((l) => existsSync(join(root, landingFile(l))));
  if (root) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      cacheControl: false,
      // The build writes file.br and file.gz beside each text file (apps/web/build/precompress.ts):
      // the best one the client accepts is sent, nothing is compressed per request. The variants
      // are not routes of their own.
      preCompressed: true,
      // The prerendered landing pages are the home page's, never addresses of their own.
      globIgnore: ['**/*.br', '**/*.gz', '**/landing-*.html'],
      setHeaders(res, path) {
        // Vite puts a content hash in every asset name; index.html must always be revalidated.
        if (path.includes(`${join(root, 'assets')}`)) {
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        } else {
          res.setHeader('cache-control', 'no-cache');
        }
        // The body depends on Accept-Encoding: caches must keep one copy per encoding. The
        // landing page also on the language and on whether a session cookie came.
        res.setHeader(
          'vary',
          /[\\/]landing-[a-z]+\.html$/.test(path)
            ? 'accept-encoding, accept-language, cookie'
            : 'accept-encoding',
        );
      },
    });
  } else {
    app.log.warn('web app not built (apps/web/dist missing): serving the API only');
  }

  app.setNotFoundHandler((request, reply) => {
    if (root && wantsHtml(request)) {
      const page = (landings && prerenderedLanding(request)) || 'index.html';
      return reply.header('cache-control', 'no-cache').sendFile(page, { cacheControl: false });
    }
    return sendError(request, reply, new AppError('not_found', 404));
  });
}

export const staticFiles = fp(staticPlugin, { name: 'portico-static' });
