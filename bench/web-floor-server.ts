import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import Fastify from 'fastify';

/**
 * The web floor: a bare Fastify process (node + tsx, like Portico) serving the landing page as
 * static HTML (FLOOR_DIR/index.html, the text Portico rendered, no script) and the files next to
 * it (the CSS, the icon), each compressed once at start-up and chosen by Accept-Encoding. No
 * JavaScript, no session, no security headers, no API.
 */
const dir = process.env.FLOOR_DIR ?? '.';
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

type TFile = { type: string; identity: Buffer; br: Buffer; gzip: Buffer; cache: string };
const files = new Map<string, TFile>();
for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
  const type = TYPES[extname(name)];
  if (!type) continue;
  const identity = readFileSync(join(dir, name));
  const br = brotliCompressSync(identity, {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
  });
  const gzip = gzipSync(identity, { level: 9 });
  const cache = name.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
  files.set(name === 'index.html' ? '/' : `/${name}`, { type, identity, br, gzip, cache });
}

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
app.get('/*', async (request, reply) => {
  const file = files.get(request.url.split('?', 1)[0]!);
  if (!file) return reply.code(404).send();
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null;
  reply.header('content-type', file.type).header('cache-control', file.cache);
  reply.header('vary', 'accept-encoding');
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding ? file[encoding] : file.identity);
});
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
