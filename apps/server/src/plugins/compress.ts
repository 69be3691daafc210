import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The kept answer being sent (plugins/answer-cache.ts): its compressed copies are made once
     * per encoding and sent again while it is kept.
     */
    keptAnswer: object | null;
  }
}

export type TEncoding = 'br' | 'gzip';

/** Smaller answers fit a packet or two: compressing them costs more than it saves. */
export const COMPRESS_FROM = 1024;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

// Brotli's quality 4 compresses about as fast as gzip's default, and smaller (docs/PERFORMANCE.md);
// its default 11 takes seconds on a large list.
const ENCODERS: Record<TEncoding, (data: Buffer | string) => Promise<Buffer>> = {
  br: (data) =>
    brotli(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 4,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
  gzip: (data) => gzipped(data),
};

/** The encoding the client asks for that we make: br before gzip, `q=0` refuses one. */
export function acceptedEncoding(header: string | undefined): TEncoding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    weights.set(name!.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const weight = (name: TEncoding) => weights.get(name) ?? weights.get('*') ?? 0;
  const best = (['br', 'gzip'] as const).filter((name) => weight(name) > 0);
  best.sort((a, b) => weight(b) - weight(a));
  return best[0];
}

function isJson(type: unknown): boolean {
  return typeof type === 'string' && type.startsWith('application/json');
}

/**
 * JSON answers of COMPRESS_FROM bytes and more go compressed, br or gzip as the client asks.
 * Only JSON: the static files carry their own precompressed copies (plugins/static.ts) and the
 * WebSocket never passes here. A kept answer's copies are kept beside it.
 */
async function compressPlugin(app: FastifyInstance) {
  const keptCopies = new WeakMap<object, Partial<Record<TEncoding, Buffer>>>();
  app.decorateRequest('keptAnswer', null);

  app.addHook('onSend', async (request: FastifyRequest, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (reply.hasHeader('content-encoding') || !isJson(reply.getHeader('content-type'))) {
      return payload;
    }
    if (Buffer.byteLength(payload) < COMPRESS_FROM) return payload;
    reply.header('vary', 'accept-encoding');
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    const kept = request.keptAnswer;
    const copies = kept ? (keptCopies.get(kept) ?? {}) : undefined;
    let body = copies?.[encoding];
    if (!body) {
      body = await ENCODERS[encoding](payload);
      if (kept && copies) keptCopies.set(kept, { ...copies, [encoding]: body });
    }
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return body;
  });
}

export const compress = fp(compressPlugin, { name: 'portico-compress' });
