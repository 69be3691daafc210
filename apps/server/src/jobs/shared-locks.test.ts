// The per-server lock across instances on one PostgreSQL: each instance (its own pool, as its
// own process would have) sees the lock another holds, waits saying so, starts when it is let
// go, and takes it at once when the holder dies. PGlite (one process) needs no shared lock.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  type TTestDatabase,
  testDatabaseKinds,
} from '../../test/support/test-database';
import { openDatabase, type TDatabase } from '../db/client';
import { StepError, toFailure } from '../deploy/engine/failure';
import { EngineLog } from '../deploy/engine/logger';
import { withServerLock } from '../deploy/engine/server-lock';
import { LOCK_LOST, type TSharedLocks } from '../deploy/engine/types';
import { createSharedLocks } from './shared-locks';

const WAITING = 'Another deployment to 192.0.2.7:22 is running; waiting for it to finish.';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe.each(testDatabaseKinds())('shared locks on %s', (kind) => {
  let testDb: TTestDatabase;
  let other: TDatabase | undefined;
  let mine: TSharedLocks | undefined;
  let theirs: TSharedLocks | undefined;
  beforeAll(async () => {
    testDb = await createTestDatabase(kind, { migrated: false });
    mine = createSharedLocks(testDb.database);
    if (kind === 'postgres') {
      other = await openDatabase({ databaseUrl: testDb.url!, poolSize: 2 });
      theirs = createSharedLocks(other);
    }
  });
  afterAll(async () => {
    await other?.close();
    await testDb?.drop();
  });

  it('exist only where several instances can share the database', () => {
    expect(mine === undefined).toBe(kind === 'pglite');
  });

  const onPostgres = kind === 'postgres' ? it : undefined;

  onPostgres?.('a run waits, saying so once, while another instance holds the server', async () => {
    const lines: string[] = [];
    const log = new EngineLog((_level, message) => void lines.push(message));
    const events: string[] = [];
    const letGo = await theirs!.acquire('192.0.2.7:22', undefined, () => events.push('unexpected'));
    const started = gate();
    const run = withServerLock(
      '192.0.2.7:22',
      log,
      undefined,
      async () => {
        events.push('mine runs');
        started.open();
      },
      mine,
    );
    // The waiting line is written while the other instance still holds the server.
    await expect
      .poll(async () => {
        await log.flush();
        return lines;
      })
      .toEqual([WAITING]);
    expect(events).toEqual([]);
    events.push('theirs ends');
    await letGo();
    await started.opened;
    await run;
    await log.flush();
    expect(events).toEqual(['theirs ends', 'mine runs']);
    expect(lines).toEqual([WAITING]);
    // And mine was let go: the other instance takes the server without waiting.
    let waited = false;
    const again = await theirs!.acquire('192.0.2.7:22', undefined, () => {
      waited = true;
    });
    expect(waited).toBe(false);
    await again();
  });

  onPostgres?.('another server is not held up', async () => {
    const letGo = await theirs!.acquire('192.0.2.7:22', undefined, () => {});
    let waited = false;
    const other = await mine!.acquire('192.0.2.8:22', undefined, () => {
      waited = true;
    });
    expect(waited).toBe(false);
    await other();
    await letGo();
  });

  onPostgres?.('a holder that dies lets the server go; the waiter starts', async () => {
    await theirs!.acquire('192.0.2.7:22', undefined, () => {});
    let waited = false;
    const waiting = mine!.acquire('192.0.2.7:22', undefined, () => {
      waited = true;
    });
    await expect.poll(() => waited).toBe(true);
    // The other instance's lock connection ends as it would when its process is killed.
    const admin = await openDatabase({ databaseUrl: testDb.url!, poolSize: 1 });
    try {
      await admin.pool!.query(
        `select pg_terminate_backend(l.pid) from pg_locks l
          where l.locktype = 'advisory' and l.granted and l.pid <> pg_backend_pid()
            and l.database = (select oid from pg_database where datname = current_database())`,
      );
    } finally {
      await admin.close();
    }
    const letGo = await waiting;
    await letGo();
  });

  onPostgres?.('a waiter that is cancelled gives up without taking the server', async () => {
    const letGo = await theirs!.acquire('192.0.2.7:22', undefined, () => {});
    const controller = new AbortController();
    const log = new EngineLog(() => undefined);
    // Both outcomes are taken as they come: each rejects when the abort lands, not when the
    // test gets to look at it.
    const cancelled = withServerLock(
      '192.0.2.7:22',
      log,
      controller.signal,
      async () => 'ran',
      mine,
    ).then(
      () => 'ran',
      (error: unknown) => error,
    );
    let waiting = false;
    const probe = mine!
      .acquire('192.0.2.7:22', controller.signal, () => {
        waiting = true;
      })
      .then(
        () => 'acquired',
        (error: unknown) => error,
      );
    await expect.poll(() => waiting).toBe(true);
    controller.abort();
    expect(await probe).toBeInstanceOf(Error);
    expect(await cancelled).toBeInstanceOf(StepError);
    await letGo();
    let waited = false;
    const next = await theirs!.acquire('192.0.2.7:22', undefined, () => {
      waited = true;
    });
    expect(waited).toBe(false);
    await next();
  });
  /** Ends, from outside, the connection that holds the server lock of `name` (as a restart would). */
  async function dropLockConnection(name: string) {
    const ended = (await testDb.database.db.execute(sql`
      select pg_terminate_backend(pid) as ended from pg_locks
      where locktype = 'advisory' and granted
        and ((classid::bigint << 32) | objid::bigint) = hashtextextended(${`portico-server:${name}`}, 0)`)) as unknown as {
      rows: { ended: boolean }[];
    };
    expect(ended.rows.map((row) => row.ended)).toEqual([true]);
  }

  onPostgres?.(
    'a lock whose connection drops says it is lost; the server is free for others',
    async () => {
      const held = await mine!.acquire('192.0.2.9:22', undefined, () => {});
      expect(held.lost.aborted).toBe(false);
      await dropLockConnection('192.0.2.9:22');
      await expect.poll(() => held.lost.aborted).toBe(true);
      expect(held.lost.reason).toBe(LOCK_LOST);
      const next = await theirs!.acquire('192.0.2.9:22', undefined, () => {});
      expect(next.lost.aborted).toBe(false);
      await held();
      await next();
      // Let go on purpose: that is not a loss.
      expect(next.lost.aborted).toBe(false);
    },
  );

  onPostgres?.(
    'a run whose lock is lost is stopped, and its failure says why in each language',
    async () => {
      const log = new EngineLog(() => undefined);
      let given: AbortSignal | undefined;
      const run = withServerLock(
        '192.0.2.10:22',
        log,
        undefined,
        (signal) => {
          given = signal;
          // Work that ends only when it is told to stop, as an SSH command does when its session closes.
          return new Promise((_resolve, reject) => {
            signal?.addEventListener('abort', () => reject(new Error('ssh session closed')));
          });
        },
        mine,
      ).then(
        () => 'ran',
        (error: unknown) => error,
      );
      await expect.poll(() => given).toBeDefined();
      await dropLockConnection('192.0.2.10:22');
      expect(await run).toBeInstanceOf(Error);
      expect(given!.reason).toBe(LOCK_LOST);
      expect(toFailure(await run, 'certbot', 'en', given)).toMatchObject({
        code: 'cancelled',
        step: 'certbot',
        message: expect.stringMatching(
          /^Stopped during certbot: this Portico instance lost its hold on the server/,
        ),
      });
      expect(toFailure(await run, 'certbot', 'es', given).message).toMatch(
        /^Detenido durante el paso certbot: esta instancia de Portico perdió su reserva del servidor/,
      );
    },
  );
});
