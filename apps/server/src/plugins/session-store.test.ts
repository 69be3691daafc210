import type { SessionStore } from '@fastify/session';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TTestDatabase } from '../../test/support/test-database';
import {
  createSessionsRepository,
  type TSessionsRepository,
} from '../modules/sessions/sessions.repository';
import { createSessionStore } from './session-store';

const promisify = {
  set: (store: SessionStore, sid: string, sess: object) =>
    new Promise<void>((resolve, reject) =>
      store.set(sid, sess as never, (e?: unknown) => (e ? reject(e) : resolve())),
    ),
  get: (store: SessionStore, sid: string) =>
    new Promise<Record<string, unknown> | null>((resolve, reject) =>
      store.get(sid, (e: unknown, s: unknown) => (e ? reject(e) : resolve(s as never))),
    ),
  destroy: (store: SessionStore, sid: string) =>
    new Promise<void>((resolve, reject) =>
      store.destroy(sid, (e?: unknown) => (e ? reject(e) : resolve())),
    ),
};

const inOneHour = () => ({ originalMaxAge: 3_600_000, expires: new Date(Date.now() + 3_600_000) });

describe.each([false, true])('session store (memory cache: %s)', (cache) => {
  let db: TTestDatabase;
  let repository: TSessionsRepository;
  let store: SessionStore;
  beforeAll(async () => {
    db = await createTestDatabase('pglite');
    repository = createSessionsRepository(db.database.db);
    store = createSessionStore(repository, { cache });
  });
  afterAll(async () => db?.drop());

  it('persists only the data and the expiry, not the cookie flags', async () => {
    await promisify.set(store, 's1', { userId: 'u1', cookie: { ...inOneHour(), secure: false } });
    const row = await repository.find('s1');
    expect(row).toMatchObject({ userId: 'u1', cookie: { originalMaxAge: 3_600_000 } });
    expect(row?.cookie).not.toHaveProperty('secure');
    expect(await promisify.get(store, 's1')).toMatchObject({ userId: 'u1' });
  });

  it('hands out copies: mutating a read session changes nothing stored', async () => {
    await promisify.set(store, 's2', { userId: 'u2', cookie: inOneHour() });
    const first = await promisify.get(store, 's2');
    first!.userId = 'someone else';
    expect((await promisify.get(store, 's2'))?.userId).toBe('u2');
  });

  it('writes a changed session at once, an unchanged one at most once a minute', async () => {
    await promisify.set(store, 's3', { userId: 'u3', cookie: inOneHour() });
    const firstExpire = (await repository.find('s3'))?.cookie;
    await promisify.set(store, 's3', { userId: 'u3', cookie: inOneHour() });
    expect((await repository.find('s3'))?.cookie).toEqual(firstExpire);
    await promisify.set(store, 's3', { userId: 'u3b', cookie: inOneHour() });
    expect((await repository.find('s3'))?.userId).toBe('u3b');
  });

  it('forgets a destroyed session everywhere', async () => {
    await promisify.set(store, 's4', { userId: 'u4', cookie: inOneHour() });
    await promisify.destroy(store, 's4');
    expect(await promisify.get(store, 's4')).toBeNull();
    expect(await repository.exists('s4')).toBe(false);
  });

  it('does not serve an expired session', async () => {
    await promisify.set(store, 's5', {
      userId: 'u5',
      cookie: { originalMaxAge: 1, expires: new Date(Date.now() - 1000) },
    });
    expect(await promisify.get(store, 's5')).toBeNull();
  });
});
