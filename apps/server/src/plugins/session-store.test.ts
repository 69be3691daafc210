import type { Session } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TTestDatabase } from '../../test/support/test-database';
import {
  createSessionsRepository,
  type TSessionsRepository,
} from '../modules/sessions/sessions.repository';
import { PorticoSession } from './session-object';
import { createSessionStore, type TFoundSession, type TPorticoSessionStore } from './session-store';

const HOUR = 3_600_000;

const promisify = {
  /** Whether the row was kept (false: it was ended meanwhile, and nothing was written). */
  set: (
    store: TPorticoSessionStore,
    sid: string,
    data: Record<string, unknown>,
    { expires = new Date(Date.now() + HOUR), stored = false } = {},
  ) =>
    new Promise<boolean>((resolve, reject) =>
      store.set(sid, data, { expires, maxAgeMs: HOUR, stored }, (e, wrote) =>
        e ? reject(e) : resolve(wrote === true),
      ),
    ),
  /** The session's data as read (without the cookie). */
  get: (store: TPorticoSessionStore, sid: string) =>
    new Promise<Record<string, unknown> | null>((resolve, reject) =>
      store.get(sid, (e, s) => (e ? reject(e) : resolve(s ? { ...s.read.data } : null))),
    ),
  found: (store: TPorticoSessionStore, sid: string) =>
    new Promise<TFoundSession | null>((resolve, reject) =>
      store.get(sid, (e, s) => (e ? reject(e) : resolve(s))),
    ),
};

describe.each([false, true])('session store (memory cache: %s)', (cache) => {
  let db: TTestDatabase;
  let repository: TSessionsRepository;
  let store: TPorticoSessionStore;
  beforeAll(async () => {
    db = await createTestDatabase('pglite');
    repository = createSessionsRepository(db.database.db, { batchReads: true });
    store = createSessionStore(repository, { cache });
  });
  afterAll(async () => db?.drop());

  it('persists only the data and the expiry', async () => {
    expect(await promisify.set(store, 's1', { userId: 'u1' })).toBe(true);
    const row = await repository.find('s1');
    expect(row).toMatchObject({ userId: 'u1', cookie: { originalMaxAge: HOUR } });
    expect(Object.keys(row?.cookie as object).sort()).toEqual(['expires', 'originalMaxAge']);
    expect(await promisify.get(store, 's1')).toMatchObject({ userId: 'u1' });
  });

  it('a request changing its session changes nothing another request reads', async () => {
    await promisify.set(store, 's2', {
      userId: 'u2',
      twoFactorPending: { userId: 'u2', since: 1 },
    });
    const found = await promisify.found(store, 's2');
    const state = { id: 's2', request: {} as never, store, stored: true, writtenAt: 0 };
    const first = new PorticoSession(state, found!.read) as unknown as Session;
    first.userId = 'someone else';
    first.twoFactorPending!.since = 2;
    expect(Object.isFrozen(found!.read.data)).toBe(true);
    const again = new PorticoSession({ ...state }, (await promisify.found(store, 's2'))!.read);
    expect(again).toMatchObject({ userId: 'u2', twoFactorPending: { userId: 'u2', since: 1 } });
  });

  it('writes each time it is asked, moving the expiry (plugins/session.ts decides when)', async () => {
    expect(await promisify.set(store, 's3', { userId: 'u3' })).toBe(true);
    const first = (await repository.find('s3'))?.cookie as { expires: string };
    const later = new Date(Date.parse(first.expires) + 60_000);
    expect(
      await promisify.set(store, 's3', { userId: 'u3b' }, { expires: later, stored: true }),
    ).toBe(true);
    expect(await repository.find('s3')).toMatchObject({
      userId: 'u3b',
      cookie: { expires: later.toISOString() },
    });
    expect(await promisify.get(store, 's3')).toMatchObject({ userId: 'u3b' });
  });

  it('never brings back a session ended while a request held it', async () => {
    await promisify.set(store, 's6', { userId: 'u6' });
    await repository.remove('s6');
    expect(await promisify.set(store, 's6', { userId: 'u6', more: 1 }, { stored: true })).toBe(
      false,
    );
    expect(await repository.exists('s6')).toBe(false);
  });

  it('forgets a destroyed session everywhere', async () => {
    await promisify.set(store, 's4', { userId: 'u4' });
    await store.destroy('s4');
    expect(await promisify.get(store, 's4')).toBeNull();
    expect(await repository.exists('s4')).toBe(false);
  });

  it('does not serve an expired session', async () => {
    await promisify.set(store, 's5', { userId: 'u5' }, { expires: new Date(Date.now() - 1000) });
    expect(await promisify.get(store, 's5')).toBeNull();
  });
});
