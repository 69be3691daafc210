// The channel between instances on one PostgreSQL database (jobs/channel.ts), which the wake line
// and the deployment log bus talk over: each instance hears the others and never itself, in
// the order said, and whatever else arrives on the channel is dropped. Needs TEST_DATABASE_URL;
// like every PostgreSQL suite here it has no cases without it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  type TTestDatabase,
  testDatabaseKinds,
} from '../../test/support/test-database';
import { openChannel, type TChannel, type TChannelMessage } from './channel';

const postgresOnly = testDatabaseKinds().filter((kind) => kind === 'postgres');
const NAME = 'portico_channel_test';

describe.each(postgresOnly)('a channel between instances on %s', () => {
  let t: TTestDatabase;
  const channels: TChannel[] = [];
  const errors: unknown[] = [];
  beforeAll(async () => {
    t = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    for (const channel of channels) await channel.close();
    await t?.drop();
  });

  async function instance() {
    const heard: TChannelMessage[] = [];
    const channel = await openChannel(t.database, NAME, {
      onMessage: (message) => void heard.push(message),
      onError: (error) => void errors.push(error),
    });
    channels.push(channel);
    return { channel, heard };
  }

  it('carries JSON objects to the other instances in the order said, never to the sender, and drops anything else', async () => {
    const a = await instance();
    const b = await instance();
    for (const said of ['not json', '5', 'null', '[1]', '"text"']) {
      await t.database.pool!.query('select pg_notify($1, $2)', [NAME, said]);
    }
    for (let n = 1; n <= 5; n++) await a.channel.say({ n });
    await b.channel.say({ from: 'b' });

    await expect.poll(() => b.heard.length).toBe(5);
    expect(b.heard.map((m) => m.n)).toEqual([1, 2, 3, 4, 5]);
    await expect.poll(() => a.heard.length).toBe(1);
    expect(a.heard[0]).toMatchObject({ from: 'b' });
    // Each carries its sender's id, which is not the receiver's own.
    expect(typeof a.heard[0]!.o).toBe('string');
    expect(a.heard[0]!.o).not.toBe(b.heard[0]!.o);
    expect(errors).toEqual([]);
  });
});
