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

// The engine's steps that run nginx, from the line that opens each to the one that closes it
// (English lines): the remote preflight (its `nginx -T`), the HTTP site and the HTTPS site, each
// with its `nginx -t`, reload and wait until live.
const NGINX_STEPS: [RegExp, RegExp][] = [
  [/^Connected\. /, /^Logged in as /],
  [/^Writing the HTTP site /, /^(Wrote|Updated) /],
  [/^Writing the HTTPS site /, /^(Wrote|Updated) /],
];

/**
 * A configuration's first run, from its log: its length and the part spent in the steps that
 * run nginx (ms), so what grows with nginx's configuration shows apart from the rest.
 */
export async function nginxShare(
  client: HttpClient,
  id: string,
): Promise<{ totalMs: number; nginxMs: number }> {
  const { json } = await client.request('GET', `/api/deployment-logs/${id}`);
  const lines = (json as { message: string; timestamp: string }[]).map((l) => ({
    message: l.message,
    at: Date.parse(l.timestamp),
  }));
  let nginxMs = 0;
  for (const [opens, closes] of NGINX_STEPS) {
    const start = lines.findIndex((l) => opens.test(l.message));
    const end = lines.findIndex((l, i) => i > start && closes.test(l.message));
    if (start < 0 || end < 0) throw new Error(`no step ${opens} in the log`);
    nginxMs += lines[end]!.at - lines[start]!.at;
  }
  return { totalMs: lines.at(-1)!.at - lines[0]!.at, nginxMs };
}
