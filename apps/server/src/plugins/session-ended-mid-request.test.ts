import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../../test/support/test-client';
import {
  createTestDatabase,
  type TTestDatabase,
  testDatabaseKinds,
} from '../../test/support/test-database';
import {
  createSessionsRepository,
  type TSessionsRepository,
} from '../modules/sessions/sessions.repository';
import { session } from './session';

const SECRET = 'a-session-secret-of-at-least-32-characters';

/**
 * A request that was already running when its session ended must not bring the session back
 * when it answers (rolling sessions write the session on every answer): a browser that signs
 * out while, say, its language is being saved would otherwise be signed in again.
 */
describe.each(testDatabaseKinds())('a session ended while a request runs (%s)', (kind) => {
  let db: TTestDatabase;
  let repository: TSessionsRepository;
  let app: FastifyInstance;
  let entered: () => void = () => {};
  let release: () => void = () => {};

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    repository = createSessionsRepository(db.database.db);
    app = Fastify();
    await app.register(session, {
      secret: SECRET,
      repository,
      cache: kind === 'pglite',
      sweepIntervalMs: 0,
    });
    app.post('/sign-in', async (request) => {
      await request.session.regenerate();
      request.session.userId = 'u1';
      return { sid: request.session.sessionId };
    });
    app.post('/sign-out', async (request) => {
      await request.sessionStore.destroy(request.session.sessionId);
      return {};
    });
    // As the account and admin services end sessions: delete the rows, then the store forgets.
    app.post('/end', async (request) => {
      const { sid } = request.body as { sid: string };
      const removed = await repository.removeMany([sid]);
      await request.sessionStore.destroy(sid);
      return { removed };
    });
    app.get('/me', async (request) => ({ userId: request.session.userId ?? null }));
    // Answers only when the test lets it, after having read the session.
    app.get('/held', async (request) => {
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      entered();
      await gate;
      return { userId: request.session.userId ?? null };
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  async function signedIn() {
    const client = new TestClient(app);
    const response = await client.request({ method: 'POST', url: '/sign-in' });
    const sid = response.json().sid as string;
    expect(await repository.exists(sid)).toBe(true);
    return { client, sid };
  }

  /**
   * Starts /held with the client's cookie; resolves once its handler runs, with the answer to
   * come (wrapped: an async function returning a promise would wait for it).
   */
  async function holdARequest(client: TestClient) {
    const running = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const answer = client.request({ method: 'GET', url: '/held' });
    await running;
    return { answer };
  }

  it.each([
    ['signed out in another request', 'sign-out'],
    ['ended from elsewhere (another device, an admin, a password change)', 'removed'],
  ])('%s: it stays ended', async (_name, how) => {
    const { client, sid } = await signedIn();
    const stale = new TestClient(app);
    for (const [name, value] of client.cookies) stale.cookies.set(name, value);

    const { answer: held } = await holdARequest(stale);
    if (how === 'sign-out') {
      await client.request({ method: 'POST', url: '/sign-out' });
    } else {
      const ended = await new TestClient(app).request({
        method: 'POST',
        url: '/end',
        payload: { sid },
      });
      expect(ended.json()).toEqual({ removed: [sid] });
    }
    release();
    const answer = await held;
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ userId: 'u1' });

    expect(await repository.exists(sid)).toBe(false);
    // The cookie the late answer set again opens nothing.
    expect((await stale.request({ method: 'GET', url: '/me' })).json()).toEqual({ userId: null });
    expect(await repository.exists(sid)).toBe(false);
  });

  it('a live session is still kept up to date by every request', async () => {
    const { client, sid } = await signedIn();
    const { answer: held } = await holdARequest(client);
    release();
    expect((await held).json()).toEqual({ userId: 'u1' });
    expect(await repository.exists(sid)).toBe(true);
    expect((await client.request({ method: 'GET', url: '/me' })).json()).toEqual({ userId: 'u1' });
  });
});
