import type { TDb } from '../../src/db/client';
import { proxyConfigurations, type TNewProxyConfigurationRow } from '../../src/db/schema';

/**
 * Inserts `count` proxies of `userId` straight into the table, 1,000 to a statement (the scale
 * tests and `npm run bench -- scale`): `shape(i)` sets what differs from a plain saved proxy.
 * Domains are `<prefix>-<i>.example.com`; answers the ids in insertion order.
 */
export async function insertManyProxies(
  db: TDb,
  userId: string,
  count: number,
  options: {
    prefix: string;
    shape?: (i: number) => Partial<TNewProxyConfigurationRow>;
  },
): Promise<string[]> {
  const ids: string[] = [];
  for (let from = 0; from < count; from += 1000) {
    const rows = await db
      .insert(proxyConfigurations)
      .values(
        Array.from({ length: Math.min(1000, count - from) }, (_, j) => {
          const i = from + j;
          return {
            userId,
            domain: `${options.prefix}-${i}.example.com`,
            serverIp: `203.0.113.${i % 250}`,
            email: 'owner@example.com',
            targetServer: `http://10.0.0.1:${3000 + (i % 1000)}`,
            ...options.shape?.(i),
          };
        }),
      )
      .returning({ id: proxyConfigurations.id });
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}
