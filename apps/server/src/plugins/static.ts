import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import { sendError } from './errors';

/** Paths that never fall back to the web app: they answer JSON (or are protocol endpoints). */
const NON_SPA = /^\/(api|ws|healthz|readyz)(\/|$|\?)/;

function wantsHtml(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (NON_SPA.test(request.url)) return false;
  // The home page answers any client (curl, uptime checks); deeper paths only browsers.
  if (request.url === '/' || request.url.startsWith('/?')) return true;
  return (request.headers.accept ?? '').includes('text/html');
}

export interface TStaticPluginOptions {
  /** The built web app (apps/web/dist); when missing only the API is served. */
  root: string | undefined;
}

async function staticPlugin(app: FastifyInstance, options: TStaticPluginOptions) {
  const root = options.root && existsSync(join(options.root, 'index.html')) ? options.root : null;
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
      globIgnore: ['**/*.br', '**/*.gz'],
      setHeaders(res, path) {
        // Vite puts a content hash in every asset name; index.html must always be revalidated.
        if (path.includes(`${join(root, 'assets')}`)) {
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        } else {
          res.setHeader('cache-control', 'no-cache');
        }
        // The body depends on Accept-Encoding: caches must keep one copy per encoding.
        res.setHeader('vary', 'accept-encoding');
      },
    });
  } else {
    app.log.warn('web app not built (apps/web/dist missing): serving the API only');
  }

  app.setNotFoundHandler((request, reply) => {
    if (root && wantsHtml(request)) {
      return reply
        .header('cache-control', 'no-cache')
        .sendFile('index.html', { cacheControl: false });
    }
    return sendError(request, reply, new AppError('not_found', 404));
  });
}

export const staticFiles = fp(staticPlugin, { name: 'portico-static' });
