import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderFinalSite, renderHttpSite } from '../apps/server/src/deploy/nginx-site';
import { certName } from '../apps/server/src/deploy/site-names';
import { connectSsh } from '../apps/server/src/deploy/ssh';
import {
  HttpClient,
  labEnv,
  startPortico,
  stopPortico,
} from '../apps/server/test/support/lab-app-helpers';
import { httpsGet } from '../apps/server/test/support/lab-helpers';
import { startLab, type TLab, type TLabServer } from '../testbed/src/lab';
import { labUnavailableReason } from '../testbed/src/prereqs';
import type { TBenchmark, TFigure } from './run';

/**
 * Deploy wall time through Portico (POST /api/deploy → job → engine → completed, as a real
 * process on PGlite) beside the floor: the same remote work done by one plain SSH session from
 * here (HTTP site, nginx -t, reload, certbot webroot, final site, nginx -t, reload, one HTTPS
 * check). Then four deployments to four servers at once beside one.
 */

const RELOAD =
  'if [ -d /run/systemd/system ]; then systemctl reload nginx; else nginx -s reload; fi';
// $1 domain, $2 HTTP site, $3 final site, $4 ACME directory, $5 cert name.
const FLOOR_SCRIPT = `set -e
mkdir -p /var/www/portico-acme
printf '%s\\n' "$2" > "/etc/nginx/sites-available/floor-$1"
ln -sf "/etc/nginx/sites-available/floor-$1" "/etc/nginx/sites-enabled/floor-$1"
nginx -t 2>&1
${RELOAD}
sleep 0.2
certbot certonly --webroot -w /var/www/portico-acme -d "$1" --cert-name "$5" --server "$4" --email ops@example.com --agree-tos --no-eff-email --non-interactive --keep-until-expiring 2>&1
printf '%s\\n' "$3" > "/etc/nginx/sites-available/floor-$1"
nginx -t 2>&1
${RELOAD}
sleep 0.2`;

async function floorDeploy(lab: TLab, server: TLabServer, domain: string): Promise<number> {
  const root = server.users.find((u) => u.name === 'root')!;
  const target = `http://${lab.status.upstream.address}:${lab.status.upstream.port}`;
  const started = performance.now();
  const session = await connectSsh({
    host: server.address,
    port: server.sshPort,
    username: 'root',
    password: root.password,
    expectedFingerprint: server.hostKeyFingerprint,
  });
  try {
    const r = await session.run(FLOOR_SCRIPT, {
      args: [
        domain,
        renderHttpSite({ domain, target }),
        renderFinalSite({ domain, target }),
        lab.status.acmeDirectoryUrl,
        certName(domain),
      ],
      timeoutMs: 300_000,
    });
    if (r.code !== 0) throw new Error(`floor script failed: ${r.stdout}${r.stderr}`);
  } finally {
    session.close();
  }
  const page = await httpsGet(lab.status, server.address, domain, '/');
  if (page.status !== 200) throw new Error(`floor site answered ${page.status}`);
  return performance.now() - started;
}

async function porticoDeploys(
  client: HttpClient,
  lab: TLab,
  targets: { server: TLabServer; domain: string }[],
): Promise<number> {
  const ids: string[] = [];
  for (const { server, domain } of targets) {
    const root = server.users.find((u) => u.name === 'root')!;
    const saved = await client.request('POST', '/api/proxy-configurations', {
      serverIp: server.address,
      domain,
      sshUser: 'root',
      sshPassword: root.password,
      email: 'ops@example.com',
      targetServer: `http://${lab.status.upstream.address}:${lab.status.upstream.port}`,
      hostKeyFingerprint: server.hostKeyFingerprint,
    });
    if (saved.status !== 200) throw new Error(`save answered ${saved.status}`);
    ids.push(saved.json.id);
  }
  const started = performance.now();
  await Promise.all(ids.map((id) => client.request('POST', `/api/deploy/${id}`)));
  const pending = new Set(ids);
  while (pending.size > 0) {
    for (const id of [...pending]) {
      const { json } = await client.request('GET', `/api/proxy-configurations/${id}`);
      if (json.status === 'completed') pending.delete(id);
      else if (json.status !== 'deploying') throw new Error(`deployment ended ${json.status}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return performance.now() - started;
}

const unavailable = labUnavailableReason();

export const benchmark: TBenchmark = {
  name: 'Deploy on a lab server: Portico (API → job → engine) vs one plain SSH session',
  unavailable: unavailable ? `skipped: the lab cannot run here (${unavailable})` : undefined,
  async run(): Promise<TFigure[]> {
    const lab = await startLab({ servers: 4 });
    const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-deploy-'));
    const portico = await startPortico({ ...labEnv(lab.status), PORTICO_DATA_DIR: dataDir });
    try {
      const [s1, s2, s3, s4] = lab.status.servers as TLabServer[] as [
        TLabServer,
        TLabServer,
        TLabServer,
        TLabServer,
      ];
      const client = new HttpClient(portico.base);
      const registered = await client.request('POST', '/api/register', {
        username: 'bench_deploy',
        email: 'bench-deploy@example.test',
        password: 'Bench1234',
      });
      if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);

      const one = await porticoDeploys(client, lab, [{ server: s1, domain: s1.domains[0]! }]);
      const floor = await floorDeploy(lab, s2, s2.domains[0]!);
      const four = await porticoDeploys(
        client,
        lab,
        [s1, s2, s3, s4].map((server) => ({ server, domain: server.domains[2]! })),
      );
      return [
        { label: 'one deploy', value: one / 1000, floor: floor / 1000, unit: ' s' },
        { label: '4 at once', value: four / 1000, floor: one / 1000, unit: ' s' },
      ];
    } finally {
      await stopPortico(portico);
      rmSync(dataDir, { recursive: true, force: true });
      await lab.stop();
    }
  },
};
