import type { HttpClient } from '../../apps/server/test/support/lab-app-helpers';

/** Each run's log lines of one configuration, with each line's time since its run's first. */
export async function printLogs(client: HttpClient, id: string, titles: string[]): Promise<void> {
  const { json } = await client.request('GET', `/api/deployment-logs/${id}`);
  const all = json as { deploymentId: string; level: string; message: string; timestamp: string }[];
  const runs = [...new Set(all.map((l) => l.deploymentId))];
  for (const [i, run] of runs.entries()) {
    const lines = all.filter((l) => l.deploymentId === run);
    const t0 = Date.parse(lines[0]?.timestamp ?? '');
    console.info(`\n  ${titles[i] ?? 'run'} (seconds since its first line):`);
    for (const l of lines) {
      const at = ((Date.parse(l.timestamp) - t0) / 1000).toFixed(2).padStart(6);
      console.info(`  ${at}  ${l.level.padEnd(7)} ${l.message.split('\n')[0]}`);
    }
  }
}
