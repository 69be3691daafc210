import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

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
    sessionStore: TSessionEnder;
  }
}

/** What a session asks of its store (plugins/session-store.ts): to end a session in the table. */
export interface TSessionEnder {
  destroy(sid: string): Promise<void>;
}

/** What the plugin keeps beside the data, under a symbol so the data's JSON leaves it out. */
export const SESSION_STATE = Symbol('session state');

export interface TSessionState {
  id: string;
  request: FastifyRequest;
  store: TSessionEnder;
  /** Read from the table: only ever updated there, so a session ended meanwhile stays ended. */
  stored: boolean;
  /** The data as read (never changed) and its JSON: the same at the end means unchanged. */
  read: TSessionRead;
  /** When the row was last written (ms since the epoch), from the expiry it holds; 0 if unknown. */
  writtenAt: number;
}

const EMPTY: TSessionRead = { data: Object.freeze({}), json: '{}' };

/** 24 random bytes, base64url: as unguessable as the ids @fastify/session handed out. */
export function newSessionId(): string {
  return randomBytes(24).toString('base64url');
}

/** A stored session's data, and that data as JSON. */
export interface TSessionRead {
  data: Readonly<Record<string, unknown>>;
  json: string;
}

/**
 * What of a stored session is its data (the cookie's expiry is kept beside it in the table), and
 * that data as JSON. Done once per row read: a session kept in memory reuses both.
 */
export function sessionDataOf(stored: Record<string, unknown>): TSessionRead {
  const data: Record<string, unknown> = {};
  for (const key of Object.keys(stored)) {
    if (key !== 'cookie' && !(key in PorticoSession.prototype)) data[key] = stored[key];
  }
  return { data: Object.freeze(data), json: JSON.stringify(data) };
}

export class PorticoSession {
  declare [SESSION_STATE]: TSessionState;

  /**
   * `state` becomes the session's own (its `read` is set here). `read` is shared with other
   * requests and is never changed: nested values are copied.
   */
  constructor(state: Omit<TSessionState, 'read'>, read: TSessionRead = EMPTY) {
    Object.defineProperty(this, SESSION_STATE, { value: state, enumerable: false });
    const self = this as Record<string, unknown>;
    for (const key in read.data) {
      const value = read.data[key];
      self[key] = typeof value === 'object' && value !== null ? structuredClone(value) : value;
    }
    (state as TSessionState).read = read;
  }

  /** True when the data is what was read (or, for a new session, still empty). */
  static unchanged(session: PorticoSession): boolean {
    const { data, json } = session[SESSION_STATE].read;
    const keys = Object.keys(session);
    // Same keys holding the same plain values: the common case, without serializing.
    if (keys.length === Object.keys(data).length) {
      let same = true;
      for (const key of keys) {
        const value = (session as unknown as Record<string, unknown>)[key];
        if (typeof value === 'object' || value !== data[key]) {
          same = false;
          break;
        }
      }
      if (same) return true;
    }
    return JSON.stringify(session) === json;
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
    state.read = EMPTY;
    state.writtenAt = 0;
  }

  async destroy(): Promise<void> {
    const state = this[SESSION_STATE];
    await state.store.destroy(state.id);
    (state.request as { session: unknown }).session = null;
  }
}
