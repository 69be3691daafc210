import { createHmac, timingSafeEqual } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest, Session } from 'fastify';
import fp from 'fastify-plugin';
import { SESSION_COOKIE } from '../modules/sessions/session-info';
import type { TSessionsRepository } from '../modules/sessions/sessions.repository';
import { newSessionId, PorticoSession, SESSION_STATE } from './session-object';
import { createSessionStore, type TLoadedUser } from './session-store';

declare module 'fastify' {
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
  /** How long an unchanged session goes before its expiry moves (row and cookie); 60 s. */
  touchAfterMs?: number;
  /** How often expired rows are deleted; 0 turns the sweeper off. */
  sweepIntervalMs?: number;
}

const SIGNATURES_KEPT = 10_000;

/**
 * Signs session ids as @fastify/cookie's signer does (HMAC-SHA256, base64 without padding: the
 * cookies @fastify/session handed out still verify) and checks them in constant time,
 * remembering each id's signature: every request of a session checks the same one.
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

/**
 * The server-side session: a signed cookie carries the id; the data lives in the `session` table
 * (plugins/session-store.ts). Anonymous visitors get no row and no cookie until something (the
 * CSRF secret, a sign-in) is kept. The 7-day expiry rolls: it moves with the row, written again
 * when the data changes and otherwise once its last write (told by the expiry it holds, so on
 * every instance and after a restart alike) is a minute old, and the cookie is sent again with
 * each such write, on no other answer.
 */
async function sessionPlugin(app: FastifyInstance, options: TSessionPluginOptions) {
  await app.register(fastifyCookie);
  const store = createSessionStore(options.repository, { cache: options.cache });
  const touchAfterMs = options.touchAfterMs ?? 60_000;
  const signer = sessionSigner(options.secret);

  app.decorateRequest('session', null as never);
  app.decorateRequest('sessionUser', undefined);
  app.decorateRequest('sessionStore', { getter: () => store });

  const fresh = (request: FastifyRequest) =>
    new PorticoSession({
      id: newSessionId(),
      request,
      store,
      stored: false,
      writtenAt: 0,
    }) as unknown as Session;

  app.addHook('onRequest', (request, _reply, done) => {
    const cookie = request.cookies[SESSION_COOKIE];
    if (!cookie) {
      request.session = fresh(request);
      done();
      return;
    }
    const sid = signer.unsign(cookie).value;
    // A cookie that names no session (forged, ended, expired) is cleared when the answer goes.
    if (!sid) {
      request.session = fresh(request);
      done();
      return;
    }
    store.get(sid, (error, found, loaded) => {
      if (error) {
        done(error as Error);
        return;
      }
      if (!found) {
        request.session = fresh(request);
        done();
        return;
      }
      // Unknown (0): the row is written at the end of this request.
      request.session = new PorticoSession(
        { id: sid, request, store, stored: true, writtenAt: found.writtenAt ?? 0 },
        found.read,
      ) as unknown as Session;
      request.sessionUser = loaded;
      done();
    });
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const session = request.session as unknown as PorticoSession | null;
    if (!session) {
      done(null, payload);
      return;
    }
    const state = session[SESSION_STATE];
    const unchanged = PorticoSession.unchanged(session);
    if (!state.stored && unchanged) {
      // Nothing to keep; a cookie that named no live session goes.
      if (request.cookies[SESSION_COOKIE]) reply.clearCookie(SESSION_COOKIE, { path: '/' });
      done(null, payload);
      return;
    }
    // Unchanged and written less than a minute ago: no write, no cookie.
    if (state.stored && unchanged && Date.now() - state.writtenAt < touchAfterMs) {
      done(null, payload);
      return;
    }
    const expires = new Date(Date.now() + SESSION_MAX_AGE_MS);
    store.set(
      state.id,
      session as unknown as Record<string, unknown>,
      { expires, maxAgeMs: SESSION_MAX_AGE_MS, stored: state.stored },
      (error, kept) => {
        if (error) {
          done(error as Error);
          return;
        }
        // Not kept: ended while this request ran, and it stays ended.
        if (kept) {
          reply.setCookie(SESSION_COOKIE, signer.sign(state.id), {
            path: '/',
            httpOnly: true,
            sameSite: 'lax',
            // request.protocol, which believes X-Forwarded-Proto only as far as trustProxy allows.
            secure: request.protocol === 'https',
            expires,
          });
        }
        done(null, payload);
      },
    );
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
