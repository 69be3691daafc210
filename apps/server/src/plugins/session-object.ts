import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { TPorticoSessionStore } from './session-store';

declare module 'fastify' {
  /**
   * A request's server-side session (plugins/session.ts). Its own enumerable properties are the
   * data kept in the `session` table; modules add theirs to this interface.
   */
  interface Session {
    userId?: string;
    /** The CSRF secret (@fastify/csrf-protection reads and writes this property). */
    _csrf?: string;
    /** The id the signed cookie carries. */
    readonly sessionId: string;
    /** A new id and no data: the old session is ended in the table at once. */
    regenerate(): Promise<void>;
    /** Ends the session in the table; the request has none afterwards. */
    destroy(): Promise<void>;
  }
  interface FastifyRequest {
    /** null once destroyed during the request. */
    session: Session;
    sessionStore: TPorticoSessionStore;
  }
}

/** What the plugin keeps beside the data, under a symbol so the data's JSON leaves it out. */
export const SESSION_STATE = Symbol('session state');

export interface TSessionState {
  id: string;
  request: FastifyRequest;
  store: TPorticoSessionStore;
  /** Read from the table: only ever updated there, so a session ended meanwhile stays ended. */
  stored: boolean;
  /** The data as read (JSON, keys in the order read): the same at the end means unchanged. */
  readAs: string;
  /** When the row was last written (ms since the epoch), from the expiry it holds; 0 if unknown. */
  writtenAt: number;
}

/** 24 random bytes, base64url: as unguessable as the ids @fastify/session handed out. */
export function newSessionId(): string {
  return randomBytes(24).toString('base64url');
}

export class PorticoSession {
  declare [SESSION_STATE]: TSessionState;

  /** `state` becomes the session's own (its `readAs` is set here). */
  constructor(
    state: Omit<TSessionState, 'readAs'> & { readAs?: string },
    data?: Record<string, unknown>,
  ) {
    Object.defineProperty(this, SESSION_STATE, { value: state, enumerable: false });
    // The cookie's expiry is kept beside the data in the table; the rest is the data.
    if (data) {
      for (const key of Object.keys(data)) {
        if (key !== 'cookie' && !(key in PorticoSession.prototype)) {
          (this as Record<string, unknown>)[key] = data[key];
        }
      }
    }
    state.readAs = JSON.stringify(this);
  }

  get sessionId(): string {
    return this[SESSION_STATE].id;
  }

  async regenerate(): Promise<void> {
    const state = this[SESSION_STATE];
    if (state.stored) await state.store.destroy(state.id);
    for (const key of Object.keys(this)) delete (this as Record<string, unknown>)[key];
    state.id = newSessionId();
    state.stored = false;
    state.readAs = '{}';
    state.writtenAt = 0;
  }

  async destroy(): Promise<void> {
    const state = this[SESSION_STATE];
    await state.store.destroy(state.id);
    (state.request as { session: unknown }).session = null;
  }
}
