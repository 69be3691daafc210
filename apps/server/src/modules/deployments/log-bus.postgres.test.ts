// The deployment log bus between two instances on one PostgreSQL database
// (modules/deployments/log-bus.ts): a line published on one reaches the other's subscribers in
// order, one too large for a notification travels as its id and is read from the database, and
// a configuration nobody there watches is not read at all. Needs TEST_DATABASE_URL; like every
// PostgreSQL suite here it has no cases without it.
import type { TWsMessage } from '@portico/shared/proxy/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  type TTestDatabase,
  testDatabaseKinds,
} from '../../../test/support/test-database';
import { createLogBus, type TLogBus } from './log-bus';

const postgresOnly = testDatabaseKinds().filter((kind) => kind === 'postgres');

const line = (id: number, message: string): TWsMessage => ({
  type: 'deployment_progress',
  data: { id, deploymentId: 'd', message, level: 'info', timestamp: '2026-11-28T17:00:00.000Z' },
});

describe.each(postgresOnly)('the deployment log bus between instances on %s', () => {
  let t: TTestDatabase;
  const buses: TLogBus[] = [];
  const errors: unknown[] = [];
  beforeAll(async () => {
    t = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    for (const bus of buses) await bus.close();
    await t?.drop();
  });

  it('brings every line to the other instance in order, a large one read by its id', async () => {
    // What the other instance's database holds: its log lines by id.
    const stored = new Map<number, TWsMessage>();
    const loaded: number[] = [];
    const bus = (loadLog: (id: number) => Promise<TWsMessage | undefined>) =>
      createLogBus({ database: t.database, loadLog, onError: (e) => void errors.push(e) }).then(
        (b) => {
          buses.push(b);
          return b;
        },
      );
    const sender = await bus(async () => undefined);
    // A read that takes a while: what arrives meanwhile waits its turn.
    const receiver = await bus(async (id) => {
      loaded.push(id);
      await new Promise((r) => setTimeout(r, 100));
      return stored.get(id);
    });
    const heard: TWsMessage[] = [];
    receiver.subscribe('watched', (m) => void heard.push(m));

    const large = line(2, 'x'.repeat(9000));
    stored.set(2, large);
    sender.publish('watched', line(1, 'first'));
    sender.publish('watched', large);
    sender.publish('unwatched', line(3, 'y'.repeat(9000)));
    sender.publish('watched', {
      type: 'deployment_status',
      data: { status: 'deployed', deploymentId: 'd' },
    });

    await expect.poll(() => heard.length).toBe(3);
    expect(heard[0]).toEqual(line(1, 'first'));
    expect(heard[1]).toEqual(large);
    expect(heard[2]!.type).toBe('deployment_status');
    // Only the watched configuration's large line was read.
    expect(loaded).toEqual([2]);
    expect(errors).toEqual([]);
  });
});
