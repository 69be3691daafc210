import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoadClient } from '../../apps/server/test/load/load-http';
import { insertManyProxies } from '../../apps/server/test/support/many-proxies';
import { BUILT_MAIN, buildServer } from './built';
import { rssMiB, startServer } from './process';
import { scaleApp, settled, signedIn } from './scale-app';

/**
 * How long the server rests before its resident set is read: V8's memory reducer gives back what
 * a burst grew (the young generation can grow to 128 MiB on a machine of this size) some 16 s
 * after it (docs/PERFORMANCE.md, "Memory and the reads"); 5 s read the burst, not the rest.
 */
const SETTLE_MS = 25_000;
const READS = 20;

/** Peak resident memory of a process in MiB (VmHWM). */
function peakMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1]) / 1024;
}

/**
 * The built server's resident set (a real process, `npm start`'s bundle on plain node, on the
 * embedded PGlite, the default) over a data dir holding `n` proxies of one account: the account
 * registered (an admin) and the proxies inserted by this process first (then closed: the data dir
 * is the server's alone), the server started on it, the account signed in over HTTP reading its
 * whole list, then the admin's whole list of everyone's (the same rows with their owner), READS
 * first pages and READS searches; then RSS at rest (SETTLE_MS), and the peak (VmHWM), which the
 * bursts of the whole lists set.
 */
export async function serverRss(n: number): Promise<{ settled: number; peak: number }> {
  buildServer();
  const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-scale-'));
  try {
    const seed = await scaleApp(join(dataDir, 'db'));
    const owner = await signedIn(seed, 'admin');
    await insertManyProxies(seed.database.db, owner.user.id, n, { prefix: `r${process.pid}-${n}` });
    await settled(seed);
    await seed.close();
    const server = await startServer(BUILT_MAIN, {
      PORTICO_DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    });
    const client = new LoadClient(new URL(server.url), '127.0.0.1');
    try {
      const login = await client.write('POST', '/api/login', {
        identifier: owner.credentials.username,
        password: owner.credentials.password,
      });
      if (login.status !== 200) throw new Error(`login answered ${login.status}`);
      const whole = await client.get('/api/user/proxy-configurations');
      if (whole.status !== 200 || whole.json.length !== n) throw new Error('whole list');
      const everyone = await client.get('/api/admin/all-proxies');
      if (everyone.status !== 200 || everyone.json.length !== n) throw new Error('admin list');
      for (let i = 0; i < READS; i++) {
        await client.get('/api/user/proxy-configurations?limit=50');
        await client.get(`/api/user/proxy-configurations?limit=50&q=${n - 1 - i}.example`);
      }
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      return { settled: rssMiB(server.child), peak: peakMiB(server.child.pid!) };
    } finally {
      client.close();
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
