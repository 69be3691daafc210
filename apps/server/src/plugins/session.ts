import { createHmac, timingSafeEqual } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SESSION_COOKIE } from '../modules/sessions/session-info';
import type { TSessionsRepository } from '../modules/sessions/sessions.repository';
import { createSessionStore, type TLoadedUser } from './session-store';

declare module 'fastify' {
  interface Session {
    userId?: string;
    _csrf?: string;
  }
  interface FastifyRequest {
    /**
     * The account of the session when it was read in the same query as the session; undefined
     * when the session came from memory, and the guard reads the account by id.
     */
    sessionUser: TLoadedUser | undefined;
  }
}

const SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export interface TSessionPluginOptions {
  secret: string;
  repository: TSessionsRepository;
  /** Keep sessions in memory too; only when this process is the table's sole writer. */
  cache?: boolean;
  /** How often expired rows are deleted; 0 turns the sweeper off. */
  sweepIntervalMs?: number;
}

const SIGNATURES_KEPT = 10_000;

/**
 * Signs session ids as @fastify/cookie's signer does (HMAC-SHA256, base64 without padding) and
 * checks them in constant time, remembering each id's signature: @fastify/session computes it
 * twice per request (to read the cookie, then to set it again), always for the same few ids.
 */
export function sessionSigner(secret: string) {
  const signatures = new Map<string, Buffer>();
  function signatureOf(value: string): Buffer {
    let signature = signatures.get(value);
    if (!signature) {
      const text = createHmac('sha256', secret).update(value).digest('base64').replace(/=/g, '');
      signature = Buffer.from(text);
      // Ids sent by anyone land here too: the map is bounded, starting over when full.
      if (signatures.size >= SIGNATURES_KEPT) signatures.clear();
      signatures.set(value, signature);
    }
    return signature;
  }
  return {
    sign: (value: string) => `${value}.${signatureOf(value).toString()}`,
    unsign(signed: string) {
      const dot = signed.lastIndexOf('.');
      const value = dot > 0 ? signed.slice(0, dot) : '';
      const actual = Buffer.from(signed.slice(dot + 1));
      const expected = value ? signatureOf(value) : undefined;
      const valid =
        !!expected && expected.length === actual.length && timingSafeEqual(expected, actual);
      return { valid, renew: false, value: valid ? value : null };
    },
  };
}

async function sessionPlugin(app: FastifyInstance, options: TSessionPluginOptions) {
  await app.register(fastifyCookie);
  const store = createSessionStore(options.repository, { cache: options.cache });
  await app.register(fastifySession, {
    secret: sessionSigner(options.secret),
    cookieName: SESSION_COOKIE,
    store,
    // Anonymous visitors get no row until something (the CSRF token, a login) is stored.
    saveUninitialized: false,
    rolling: true,
    cookie: {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      // request.protocol, which believes X-Forwarded-Proto only as far as trustProxy allows.
      secure: 'auto',
      maxAge: SESSION_MAX_AGE_MS,
    },
  });

  // Runs right after @fastify/session's hook, still inside the store's read callback (hooks
  // call the next one synchronously), where the account read with the session is at hand.
  app.decorateRequest('sessionUser', undefined);
  app.addHook('onRequest', (request, _reply, done) => {
    const sid = request.session?.sessionId;
    request.sessionUser = sid ? store.userLoadedWith(sid) : undefined;
    done();
  });

  const interval = options.sweepIntervalMs ?? 10 * 60 * 1000;
  if (interval > 0) {
    const sweep = () => {
      options.repository.sweepExpired().then(
        (count) => {
          if (count > 0) app.log.info({ count }, 'expired sessions swept');
        },
        (error) => app.log.warn({ err: error }, 'session sweep failed'),
      );
    };
    const timer = setInterval(sweep, interval);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
}

export const session = fp(sessionPlugin, { name: 'portico-session' });
