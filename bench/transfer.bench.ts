import { eq } from 'drizzle-orm';
import { proxyConfigurations } from '../apps/server/src/db/schema';
import { insertManyProxies } from '../apps/server/test/support/many-proxies';
import { scaleApp, signedIn, type TScaleApp } from './lib/scale-app';
import type { TBenchmark, TFigure } from './run';

/**
 * Export and import of one account's 10,000 proxies (TRANSFER_N) on PGlite, through the app:
 * the time each takes and the most memory (RSS, sampled every 10 ms) it added over the
 * process before it. The export's floor is one select of the same rows and one
 * JSON.stringify (all in memory at once); the import's, the same rows inserted with no checks.
 */
const N = Number(process.env.TRANSFER_N ?? 10_000);
const HASH = `$6$saltsalt$${'a'.repeat(86)}`;

async function measured<T>(work: () => Promise<T>): Promise<{ ms: number; mib: number; value: T }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const start = performance.now();
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { ms: performance.now() - start, mib: (peak - base) / 2 ** 20, value };
  } finally {
    clearInterval(sampler);
  }
}

export const benchmark: TBenchmark = {
  name: `Export and import of ${N} proxies (PGlite, in process)`,
  async run(): Promise<TFigure[]> {
    let a: TScaleApp | undefined;
    let b: TScaleApp | undefined;
    try {
      a = await scaleApp('memory://', { proxies: N * 2 });
      const { client, user, credentials } = await signedIn(a);
      await insertManyProxies(a.database.db, user.id, N, {
        prefix: `bench-${process.pid}`,
        shape: () => ({ options: { basicAuth: [{ username: 'bob', passwordHash: HASH }] } }),
      });
      const floorExport = await measured(async () =>
        JSON.stringify(
          await a!.database.db
            .select()
            .from(proxyConfigurations)
            .where(eq(proxyConfigurations.userId, user.id)),
        ),
      );
      // Over HTTP with a token, read as it arrives: the export is never whole in this process.
      const minted = await client.write('POST', '/api/account/tokens', {
        name: 'bench',
        scope: 'manage',
        expiresInDays: 1,
        password: credentials.password,
      });
      if (minted.statusCode !== 201) throw new Error(minted.body);
      const address = await a.app.listen({ port: 0, host: '127.0.0.1' });
      const exported = await measured(async () => {
        const response = await fetch(`${address}/api/account/export`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${minted.json().token}`,
            'content-type': 'application/json',
          },
          body: '{}',
        });
        if (!response.ok || !response.body) throw new Error(await response.text());
        let bytes = 0;
        const reader = response.body.getReader();
        for (let read = await reader.read(); !read.done; read = await reader.read()) {
          bytes += read.value.length;
        }
        return bytes;
      });
      console.info(`  export: ${(exported.value / 2 ** 20).toFixed(1)} MiB of JSON`);
      const document = JSON.parse(
        (await client.write('POST', '/api/account/export', {})).body,
      ) as unknown;

      b = await scaleApp('memory://', { proxies: N * 2 });
      const target = await signedIn(b);
      const floorImport = await measured(() =>
        insertManyProxies(b!.database.db, target.user.id, N, { prefix: `floor-${process.pid}` }),
      );
      const other = await signedIn(b);
      const imported = await measured(async () => {
        const response = await other.client.write('POST', '/api/account/import', { document });
        if (response.statusCode !== 200) throw new Error(response.body);
      });
      return [
        { label: 'export', value: exported.ms, floor: floorExport.ms, unit: ' ms' },
        { label: 'export RSS added', value: exported.mib, floor: floorExport.mib, unit: ' MiB' },
        { label: 'import', value: imported.ms, floor: floorImport.ms, unit: ' ms' },
        { label: 'import RSS added', value: imported.mib, floor: floorImport.mib, unit: ' MiB' },
      ];
    } finally {
      await a?.close();
      await b?.close();
    }
  },
};
