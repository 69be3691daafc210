import type { TDatabase } from '../../apps/server/src/db/client';
import { createUsersRepository } from '../../apps/server/src/modules/users/users.repository';
import { LoadClient, sessionAddress } from '../../apps/server/test/load/load-http';
import { expectStatus, seedLogs, TARGETS } from '../../apps/server/test/load/load-seed';

/** What the read benchmarks ask for: the sizes the issue names. */
export const READS_SHAPE = {
  ownerProxies: 100,
  logLines: 500,
  adminUsers: 20,
  proxiesPerAdminUser: 10,
};

export interface TReadsWorld {
  /** Signed in as the user with 100 proxies, the first of which has a 500-line run. */
  owner: LoadClient;
  ownerProxyIds: string[];
  /** Signed in as an administrator (made one in the database, as `portico user promote` does). */
  admin: LoadClient;
  adminUsername: string;
}

async function register(client: LoadClient, username: string): Promise<string> {
  const r = await client.write('POST', '/api/register', {
    username,
    email: `${username}@example.test`,
    password: 'Bench1234x',
  });
  expectStatus('register', r, 201);
  return r.json.user.id;
}

async function saveProxies(client: LoadClient, username: string, count: number) {
  const ids: string[] = [];
  for (let p = 0; p < count; p++) {
    const saved = await client.write('POST', '/api/proxy-configurations', {
      // Nothing here deploys; port 9 on this machine refuses should anything try.
      serverIp: '127.0.0.1',
      domain: `p${p}-${username.replaceAll('_', '-')}.example.com`,
      sshUser: 'root',
      sshPort: 9,
      sshPassword: 'Bench-ssh-pass-1',
      email: `${username}@example.test`,
      targetServer: TARGETS[0],
    });
    expectStatus('save proxy', saved, 200);
    ids.push(saved.json.id);
  }
  return ids;
}

/**
 * Users and proxies through the API as the web app sends them, each user from an address of
 * its own (the per-address register limit). What the API cannot do without a server to deploy
 * to is left to `finishInDatabase`, run while Portico is stopped.
 */
export async function seedReadsThroughApi(base: URL): Promise<TReadsWorld & { ownerId: string }> {
  const owner = new LoadClient(base, sessionAddress(0));
  const ownerId = await register(owner, 'bench_owner');
  const ownerProxyIds = await saveProxies(owner, 'bench_owner', READS_SHAPE.ownerProxies);
  const admin = new LoadClient(base, sessionAddress(1));
  await register(admin, 'bench_admin');
  let next = 0;
  const worker = async () => {
    while (next < READS_SHAPE.adminUsers) {
      const i = next++;
      const client = new LoadClient(base, sessionAddress(2 + i));
      const username = `bench_user_${i}`;
      await register(client, username);
      await saveProxies(client, username, READS_SHAPE.proxiesPerAdminUser);
      client.close();
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return { owner, ownerId, ownerProxyIds, admin, adminUsername: 'bench_admin' };
}

/** The administrator's role and a finished 500-line run, written as the CLI and the job would. */
export async function finishInDatabase(
  database: TDatabase,
  world: TReadsWorld & { ownerId: string },
): Promise<void> {
  const users = createUsersRepository(database.db);
  const admin = await users.findByUsername(world.adminUsername);
  await users.update(admin!.id, { role: 'admin' });
  const id = world.ownerProxyIds[0]!;
  await seedLogs(
    database.db,
    world.ownerId,
    { id, domain: 'p0-bench-owner.example.com', logMessages: [] },
    READS_SHAPE.logLines,
  );
}
