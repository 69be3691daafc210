import type { Session } from 'fastify';
import { describe, expect, it } from 'vitest';
import { PorticoSession, sessionDataOf } from './session-object';

function sessionOf(stored?: Record<string, unknown>) {
  const state = {
    id: 'sid',
    request: {} as never,
    store: {} as never,
    stored: !!stored,
    writtenAt: 0,
  };
  const session = new PorticoSession(state, stored ? sessionDataOf(stored) : undefined);
  return { session, data: session as unknown as Session & Record<string, unknown> };
}

describe('PorticoSession.unchanged (whether the row must be written)', () => {
  const stored = {
    userId: 'u1',
    _csrf: 'secret',
    twoFactorPending: { userId: 'u1', since: 5 },
    cookie: { originalMaxAge: 1000, expires: new Date(0).toISOString() },
  };

  it('is unchanged as read, the cookie being no part of the data', () => {
    const { session } = sessionOf(stored);
    expect(PorticoSession.unchanged(session)).toBe(true);
    expect(JSON.stringify(session)).toBe(
      '{"userId":"u1","_csrf":"secret","twoFactorPending":{"userId":"u1","since":5}}',
    );
  });

  it('sees a value changed, added, removed, or set to the same value', () => {
    const changed = sessionOf(stored);
    changed.data.userId = 'u2';
    expect(PorticoSession.unchanged(changed.session)).toBe(false);

    const added = sessionOf(stored);
    added.data.ip = '127.0.0.1';
    expect(PorticoSession.unchanged(added.session)).toBe(false);

    const removed = sessionOf(stored);
    delete removed.data._csrf;
    expect(PorticoSession.unchanged(removed.session)).toBe(false);

    const same = sessionOf(stored);
    same.data.userId = 'u1';
    expect(PorticoSession.unchanged(same.session)).toBe(true);
  });

  it('sees a change inside a nested value, and leaves what was read as it was', () => {
    const read = sessionDataOf(stored);
    const state = {
      id: 'sid',
      request: {} as never,
      store: {} as never,
      stored: true,
      writtenAt: 0,
    };
    const session = new PorticoSession(state, read);
    (session as unknown as Session).twoFactorPending!.since = 6;
    expect(PorticoSession.unchanged(session)).toBe(false);
    expect(read.data.twoFactorPending).toEqual({ userId: 'u1', since: 5 });
  });

  it('a new session is unchanged while empty, changed once something is kept', () => {
    const fresh = sessionOf();
    expect(PorticoSession.unchanged(fresh.session)).toBe(true);
    fresh.data._csrf = 'x';
    expect(PorticoSession.unchanged(fresh.session)).toBe(false);
  });
});
