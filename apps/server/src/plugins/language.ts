import { pickLanguage, type TLanguage } from '@portico/shared/api-error';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The caller's language (Accept-Language, Spanish by default): the one place it is worked
     * out. Answers' messages, error bodies and cached answers are in it.
     */
    readonly language: TLanguage;
  }
}

const RESOLVED = Symbol('language');

type TResolving = FastifyRequest & { [RESOLVED]?: TLanguage };

// A getter rather than an onRequest hook: the error handler reads it too, for requests that
// failed before any hook ran (a bad URL, a body too large).
function language(this: TResolving): TLanguage {
  this[RESOLVED] ??= pickLanguage(this.headers['accept-language']);
  return this[RESOLVED];
}

async function languagePlugin(app: FastifyInstance) {
  app.decorateRequest('language', { getter: language });
}

export const requestLanguage = fp(languagePlugin, { name: 'portico-language' });
