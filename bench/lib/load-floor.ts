import { writeFileSync } from 'node:fs';
import type { TSeededSession } from '../../apps/server/test/load/load-seed';

/** What the floor server answers: Portico's own answers, read back once after its run. */
export interface TFloorData {
  /** A session's list, by the Cookie header it sends. */
  lists: Record<string, Record<string, unknown>[]>;
  /** Deployment log of each proxy, by proxy id. */
  logs: Record<string, unknown[]>;
}

/**
 * Reads every session's list and logs from Portico (state after its run, so each session's
 * expectations still hold) and writes them where the floor server loads them from.
 */
export async function captureFloorData(sessions: TSeededSession[], file: string): Promise<void> {
  const data: TFloorData = { lists: {}, logs: {} };
  for (const { client, proxies } of sessions) {
    const list = await client.get('/api/user/proxy-configurations');
    if (list.status !== 200) throw new Error(`reading the list for the floor: ${list.status}`);
    data.lists[client.cookieHeader()] = list.json;
    for (const { id } of proxies) {
      const logs = await client.get(`/api/deployment-logs/${id}`);
      if (logs.status !== 200) throw new Error(`reading logs for the floor: ${logs.status}`);
      data.logs[id] = logs.json;
    }
  }
  writeFileSync(file, JSON.stringify(data));
}
