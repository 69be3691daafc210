import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FUNCTIONS, RELOAD_BODY } from '../apps/server/src/deploy/engine/nginx-control';
import { renderFinalSite } from '../apps/server/src/deploy/nginx-site';
import { certName, sitePaths } from '../apps/server/src/deploy/site-names';
import { connectSsh, type TSshSession } from '../apps/server/src/deploy/ssh';
import {
  HttpClient,
  labEnv,
  rootProxy,
  startPortico,
  stopPortico,
} from '../apps/server/test/support/lab-app-helpers';
import { startLab, type TLab, type TLabServer } from '../testbed/src/lab';
import { labUnavailableReason } from '../testbed/src/prereqs';
import { nginxShare, printLogs } from './lib/deploy-logs';
import type { TBenchmark, TFigure } from './run';

/**
 * Many sites on one server (issue 38): on one lab server, Portico (a real process on PGlite)
 * deploys a first proxy through its API, then FILL more Portico sites are put on the server,
 * then it deploys the 301st, and right after it the 302nd (the server as the 301st left it: the
 * dump the 301st kept still true, as for every run after one of Portico's own); each is then
 * removed through the API (delete with removal and its certificate), the 301st and 302nd while
 * the server holds the others, the first once it is alone again.
 *
 * How the FILL sites get there (honestly not deployments): each is Portico's own final HTTPS
 * site (renderFinalSite) written where Portico writes it (sitePaths) by Portico's SSH session
 * (writeFile), enabled, with a copy of the first deployment's certificate files under its own
 * certificate name, then one `nginx -t` and reload. nginx then loads 301 server blocks and
 * certificates, as it would for 300 deployments; certbot holds one lineage more (the first).
 *
 * Each deploy's log is cut into the steps that run nginx (preflight with `nginx -T` unless a kept
 * dump stands in, HTTP site, HTTPS site, each with its test, reload and wait until live) and the
 * rest (Portico's own and certbot's); `nginx -t` and a reload are also timed alone over SSH at 1
 * and at 301 sites, and a removal's own share is it less one of each. BENCH_DEPLOY_LOG=1 prints
 * the deploys' logs with each line's time.
 */
/** Portico sites on the server when the last is deployed: the first and FILL more. */
const SITES = 300;
const FILL = SITES - 1;

const unavailable = labUnavailableReason();

async function rootSession(server: TLabServer): Promise<TSshSession> {
  const root = server.users.find((u) => u.name === 'root')!;
  return connectSsh({
    host: server.address,
    port: server.sshPort,
    username: 'root',
    password: root.password,
    expectedFingerprint: server.hostKeyFingerprint,
  });
}

/** A reload as Portico makes it: the master signalled, then waited for until the change is live. */
const RELOAD = `${FUNCTIONS}\n${RELOAD_BODY}`;

/** Milliseconds of `nginx -t`, and of a reload, each the median of 3 over one session. */
async function nginxCosts(session: TSshSession): Promise<{ test: number; reload: number }> {
  const timed = async (script: string) => {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const r = await session.run(script, { timeoutMs: 120_000 });
      if (r.code !== 0 || r.stdout.includes('PORTICO_RELOAD=pending')) {
        throw new Error(`${script}: ${r.stdout}${r.stderr}`);
      }
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b)[1]!;
  };
  return { test: await timed('nginx -t 2>&1'), reload: await timed(RELOAD) };
}

async function deploy(client: HttpClient, id: string): Promise<number> {
  const started = performance.now();
  const r = await client.request('POST', `/api/deploy/${id}`);
  if (r.status !== 202) throw new Error(`deploy answered ${r.status}`);
  for (;;) {
    const { json } = await client.request('GET', `/api/proxy-configurations/${id}`);
    if (json.status === 'completed') return performance.now() - started;
    if (json.status !== 'deploying') throw new Error(`deployment ended ${json.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function remove(client: HttpClient, id: string): Promise<number> {
  const started = performance.now();
  const r = await client.request('DELETE', `/api/proxy-configurations/${id}`);
  if (r.status !== 200 || !r.json.removedFromServer) {
    throw new Error(`removal answered ${r.status}: ${JSON.stringify(r.json)}`);
  }
  return performance.now() - started;
}

async function save(client: HttpClient, lab: TLab, server: TLabServer, domain: string) {
  const saved = await client.request('POST', '/api/proxy-configurations', {
    ...rootProxy(lab.status, server, domain),
    hostKeyFingerprint: server.hostKeyFingerprint,
  });
  if (saved.status !== 200) throw new Error(`save answered ${saved.status}`);
  return saved.json.id as string;
}

/** FILL Portico sites written as described above; their domains. */
async function fill(session: TSshSession, lab: TLab, firstDomain: string) {
  const target = `http://${lab.status.upstream.address}:${lab.status.upstream.port}`;
  const zone = firstDomain.slice(firstDomain.indexOf('.') + 1);
  const domains = Array.from({ length: FILL }, (_, i) => `fill${i}.${zone}`);
  for (const domain of domains) {
    await session.writeFile(
      sitePaths('debian', domain).file,
      renderFinalSite({ domain, target }),
      0o644,
    );
  }
  // $1 the first's certificate name; then each domain's site file, link and certificate name.
  const script = `set -e
first="$1"; shift
while [ $# -gt 0 ]; do
  ln -sf "$1" "$2"
  mkdir -p "/etc/letsencrypt/live/$3"
  cp -L "/etc/letsencrypt/live/$first/fullchain.pem" "/etc/letsencrypt/live/$first/privkey.pem" "/etc/letsencrypt/live/$3/"
  shift 3
done
nginx -t 2>&1
${RELOAD}`;
  const args = [certName(firstDomain)];
  for (const domain of domains) {
    const paths = sitePaths('debian', domain);
    args.push(paths.file, paths.enabledLink!, certName(domain));
  }
  const r = await session.run(script, { args, timeoutMs: 300_000 });
  if (r.code !== 0) throw new Error(`filling failed: ${r.stdout}${r.stderr}`);
  return domains;
}

/** The FILL sites gone again, so the first is alone on the server. */
async function unfill(session: TSshSession, domains: string[]) {
  const args = domains.flatMap((domain) => {
    const paths = sitePaths('debian', domain);
    return [paths.enabledLink!, paths.file, `/etc/letsencrypt/live/${certName(domain)}`];
  });
  const r = await session.run(`set -e\nrm -rf "$@"\nnginx -t 2>&1\n${RELOAD}`, {
    args,
    timeoutMs: 300_000,
  });
  if (r.code !== 0) throw new Error(`unfilling failed: ${r.stdout}${r.stderr}`);
}

export const benchmark: TBenchmark = {
  name: `scale-lab: the 1st and the ${SITES + 1}st Portico site on one lab server (deploy and removal through the API)`,
  unavailable: unavailable ? `skipped: the lab cannot run here (${unavailable})` : undefined,
  async run(): Promise<TFigure[]> {
    const lab = await startLab({ servers: 1, variants: { '*': ['cron-running'] } });
    const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-scale-lab-'));
    const server = lab.status.servers[0] as TLabServer;
    let portico: Awaited<ReturnType<typeof startPortico>> | undefined;
    let session: TSshSession | undefined;
    try {
      // A first start from source runs initdb in a child process: minutes on a busy machine.
      portico = await startPortico(
        { ...labEnv(lab.status), PORTICO_DATA_DIR: dataDir },
        [],
        300_000,
      );
      session = await rootSession(server);
      const client = new HttpClient(portico.base);
      const registered = await client.request('POST', '/api/register', {
        username: 'bench_scale_lab',
        email: 'bench-scale-lab@example.test',
        password: 'Bench1234',
      });
      if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
      const [firstDomain, lastDomain, nextDomain] = [
        server.domains[0]!,
        server.domains[2]!,
        server.domains[1]!,
      ];
      const first = await save(client, lab, server, firstDomain);
      const firstDeploy = await deploy(client, first);
      const alone = await nginxCosts(session);
      const filled = await fill(session, lab, firstDomain);
      const last = await save(client, lab, server, lastDomain);
      const lastDeploy = await deploy(client, last);
      const next = await save(client, lab, server, nextDomain);
      const nextDeploy = await deploy(client, next);
      const crowded = await nginxCosts(session);
      if (process.env.BENCH_DEPLOY_LOG) {
        await printLogs(client, first, ['the 1st deploy']);
        await printLogs(client, last, [`the ${SITES + 1}st deploy`]);
        await printLogs(client, next, [`the ${SITES + 2}nd deploy`]);
      }
      // Read before the removals: a deleted proxy's log goes with it.
      const [firstLog, lastLog, nextLog] = [
        await nginxShare(client, first),
        await nginxShare(client, last),
        await nginxShare(client, next),
      ];
      const lastRemoval = await remove(client, last);
      await remove(client, next);
      await unfill(session, filled);
      const firstRemoval = await remove(client, first);
      const nth = `${SITES + 1}st`;
      const own = (log: { totalMs: number; nginxMs: number }) => log.totalMs - log.nginxMs;
      const ownRemoval = (total: number, nginx: { test: number; reload: number }) =>
        total - nginx.test - nginx.reload;
      console.info(
        `\n  nginx -t: ${alone.test.toFixed(0)} ms with 1 site, ${crowded.test.toFixed(0)} ms with ${SITES + 1};` +
          ` a reload as Portico makes it (signal, wait until live): ${alone.reload.toFixed(0)} → ${crowded.reload.toFixed(0)} ms (medians of 3, each over SSH)`,
      );
      return [
        {
          label: `${nth} deploy`,
          value: lastDeploy / 1000,
          floor: firstDeploy / 1000,
          unit: ' s',
          goal: `the 1st deploy; goal ≤ 150 %`,
        },
        {
          label: `${nth} nginx steps`,
          value: lastLog.nginxMs / 1000,
          floor: firstLog.nginxMs / 1000,
          unit: ' s',
          goal: 'the steps that run nginx, from its log; the 1st likewise',
        },
        {
          label: `${SITES + 2}nd deploy`,
          value: nextDeploy / 1000,
          floor: firstDeploy / 1000,
          unit: ' s',
          goal: `right after the ${nth}; the 1st deploy; goal ≤ 150 %`,
        },
        {
          label: `${SITES + 2}nd nginx steps`,
          value: nextLog.nginxMs / 1000,
          floor: firstLog.nginxMs / 1000,
          unit: ' s',
          goal: 'the steps that run nginx, from its log; the 1st likewise',
        },
        {
          label: `${nth} own share`,
          value: own(lastLog) / 1000,
          floor: own(firstLog) / 1000,
          unit: ' s',
          goal: 'its log less the steps that run nginx (preflight, HTTP site, HTTPS site); the 1st likewise',
        },
        {
          label: `${nth} removal`,
          value: lastRemoval / 1000,
          floor: firstRemoval / 1000,
          unit: ' s',
          goal: 'the 1st removal (alone on the server)',
        },
        {
          label: `${nth} removal own`,
          value: ownRemoval(lastRemoval, crowded) / 1000,
          floor: ownRemoval(firstRemoval, alone) / 1000,
          unit: ' s',
          goal: 'the removal less nginx -t and a reload at its site count; the 1st likewise',
        },
        {
          label: 'nginx -t',
          value: crowded.test,
          floor: alone.test,
          unit: ' ms',
          goal: `with ${SITES + 1} sites; floor: with 1`,
        },
        {
          label: 'nginx reload',
          value: crowded.reload,
          floor: alone.reload,
          unit: ' ms',
          goal: `with ${SITES + 1} sites; floor: with 1`,
        },
      ];
    } finally {
      session?.close();
      await stopPortico(portico);
      rmSync(dataDir, { recursive: true, force: true });
      await lab.stop();
    }
  },
};
