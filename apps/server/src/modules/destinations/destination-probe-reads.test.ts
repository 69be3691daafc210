// The minute's probe reads the active destinations a batch at a time, only id and endpoint,
// through their partial index: among 3,000 inactive destinations, 5 active ones are probed
// (real connects to a closed port) while the probe's reads, each explained with the planner's
// own plan (test/support/rows-read.ts), go through those 5 rows. Reading the table, or
// walking the primary key past the inactive ones, would count 3,000.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestEndpoints } from '../../../test/peers/test-endpoints';
import { rowsReadRecorder } from '../../../test/support/rows-read';
import {
  createTestDatabase,
  type TTestDatabase,
  testDatabaseKinds,
} from '../../../test/support/test-database';
import { destinationServers } from '../../db/schema';
import { probeDestinations } from './destination-probe';

const endpoints = useTestEndpoints();
const INACTIVE = 3000;
const ACTIVE = 5;

describe.each(testDatabaseKinds())('the destination probe reads what it needs on %s', (kind) => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    for (let from = 0; from < INACTIVE; from += 1000) {
      await t.database.db.insert(destinationServers).values(
        Array.from({ length: 1000 }, (_, i) => ({
          name: `resting ${from + i}`,
          endpoint: `127.0.0.1:${endpoints.closedPort}`,
          description: 'x'.repeat(200),
          isActive: false,
        })),
      );
    }
    await t.database.db.insert(destinationServers).values(
      Array.from({ length: ACTIVE }, (_, i) => ({
        name: `active ${i}`,
        endpoint: `127.0.0.1:${endpoints.closedPort}`,
      })),
    );
    await t.database.db.execute(sql`analyze`);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('probes the active ones in batches, reading only their rows', async () => {
    const recorder = rowsReadRecorder(t.database);
    const summary = await probeDestinations({ ...t.database, db: recorder.db }, { batch: 2 });
    expect(summary).toEqual({ probed: ACTIVE, online: 0, offline: ACTIVE });
    // Batches of 2 for 5 rows: three reads with rows and the empty one that ends the pass.
    expect(recorder.statements).toHaveLength(4);
    expect(recorder.statements.every((s) => !/"description"/.test(s))).toBe(true);
    // The planner may sort a last short batch from the index: a few rows over, never the table.
    expect(recorder.rowsRead('destination_servers')).toBeLessThanOrEqual(2 * ACTIVE);
  });
});
