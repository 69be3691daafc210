import type { TestClient } from './test-client';

/** A per-server run once it ended (a redeploy's deployments take a few seconds each on the lab). */
export async function runEnded(client: TestClient, serverId: string, runId: string) {
  const until = Date.now() + 180_000;
  for (;;) {
    const url = `/api/ssh-servers/${serverId}/runs/${runId}`;
    const run = (await client.request({ method: 'GET', url })).json();
    if (!['queued', 'running'].includes(run.state) || Date.now() > until) return run;
    await new Promise((r) => setTimeout(r, 250));
  }
}
