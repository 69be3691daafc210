import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderFinalSite, renderHttpSite } from '../apps/server/src/deploy/nginx-site';
import { certName } from '../apps/server/src/deploy/site-names';
import { connectSsh } from '../apps/server/src/deploy/ssh';
import { JOB_TIMING } from '../apps/server/src/jobs/queues';
import {
  HttpClient,
  labEnv,
  rootProxy,
  startPortico,
  stopPortico,
} from '../apps/server/test/support/lab-app-helpers';
import { httpsGet } from '../apps/server/test/support/lab-helpers';
import { startLab, type TLab, type TLabServer } from '../testbed/src/lab';
import { labUnavailableReason } from '../testbed/src/prereqs';
import { printLogs } from './lib/deploy-logs';
import { benchNodeArgs, cpuMs, machineCpuMs } from './lib/process';
import type { TBenchmark, TFigure } from './run';

/**
 * Deploy wall time through Portico (POST /api/deploy → job → engine → completed, as a real
 * process on PGlite) beside two floors on the same kind of lab server, in the same run:
 * - same steps: the remote work Portico does, by one plain SSH session from here (HTTP site,
 *   nginx -t, reload, certbot webroot, final site, nginx -t, reload, one HTTPS check);
 * - naive: what a person types over one SSH session (write the site, reload,
 *   `certbot --nginx --redirect`, one HTTPS check).
 * Then an unchanged redeploy, and one deployment to each lab server at once beside one and beside
 * the same-steps script run on every server at once (what this machine allows), with the proxy
 * list's p99 (GET /api/user/proxy-configurations) sampled meanwhile.
 * BENCH_DEPLOY_LOG=1 prints the first deployment's and the redeploy's logs with each line's time.
 */

/** Ten deploys at once; the first deploys and their floors each take a fresh server of their own. */
const AT_ONCE = 10;
const FIRST_ROUNDS = 5;
const SERVERS = Math.max(AT_ONCE, FIRST_ROUNDS * 3);
const SAMPLE_EVERY_MS = 25;

/** Linux keeps a nice value per thread: sets it on every thread of this process. */
function niceThisProcess(priority: number): void {
  // With the kernel's autogroup scheduling (on here), a nice value only weighs against the
  // processes of the same session: the whole group gets the priority too, or the lab's
  // sessions share the CPU equally with Portico's whatever its nice says.
  try {
    writeFileSync('/proc/self/autogroup', String(priority));
  } catch {
    // No autogroup scheduling on this kernel: the threads' nice values are enough.
  }
  for (const thread of readdirSync('/proc/self/task')) {
    try {
      setPriority(Number(thread), priority);
    } catch {
      // A thread that ended meanwhile.
    }
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
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
// $1 domain, $2 a plain proxy site on port 80, $4 ACME directory (same argument shape).
const NAIVE_SCRIPT = `set -e
printf '%s\\n' "$2" > "/etc/nginx/sites-available/naive-$1"
ln -sf "/etc/nginx/sites-available/naive-$1" "/etc/nginx/sites-enabled/naive-$1"
${RELOAD}
certbot --nginx --redirect -d "$1" --server "$4" --email ops@example.com --agree-tos --no-eff-email --non-interactive 2>&1`;

/**
 * The script's site answers over HTTPS with its certificate. `nginx -s reload` returns before the
 * new workers take over, and under the load of ten deploys at once the old ones (without this
 * site) may still answer after the script's pause: the script is done when the site is live, as
 * Portico's deploy is, so its HTTPS check waits for that (up to 10 s).
 */
async function servedOverHttps(lab: TLab, server: TLabServer, domain: string): Promise<void> {
  const deadline = performance.now() + 10_000;
  for (;;) {
    try {
      const page = await httpsGet(lab.status, server.address, domain, '/');
      if (page.status === 200) return;
      if (performance.now() > deadline) throw new Error(`script's site answered ${page.status}`);
    } catch (error) {
      if (performance.now() > deadline) throw error;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function scriptDeploy(
  lab: TLab,
  server: TLabServer,
  domain: string,
  script: string,
): Promise<number> {
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
    const r = await session.run(script, {
      args: [
        domain,
        renderHttpSite({ domain, target }),
        renderFinalSite({ domain, target }),
        lab.status.acmeDirectoryUrl,
        certName(domain),
      ],
      timeoutMs: 300_000,
    });
    if (r.code !== 0) throw new Error(`script failed: ${r.stdout}${r.stderr}`);
  } finally {
    session.close();
  }
  await servedOverHttps(lab, server, domain);
  return performance.now() - started;
}

async function saveConfigurations(
  client: HttpClient,
  lab: TLab,
  targets: { server: TLabServer; domain: string }[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const { server, domain } of targets) {
    const saved = await client.request('POST', '/api/proxy-configurations', {
      ...rootProxy(lab.status, server, domain),
      hostKeyFingerprint: server.hostKeyFingerprint,
    });
    if (saved.status !== 200) throw new Error(`save answered ${saved.status}`);
    ids.push(saved.json.id);
  }
  return ids;
}

/** Deploys (or redeploys) every configuration at once; milliseconds until all completed. */
async function porticoDeploys(
  client: HttpClient,
  ids: string[],
  kind: 'deploy' | 'redeploy' = 'deploy',
): Promise<number> {
  const started = performance.now();
  await Promise.all(
    ids.map(async (id) => {
      const path =
        kind === 'deploy' ? `/api/deploy/${id}` : `/api/proxy-configurations/${id}/redeploy`;
      const r = await client.request('POST', path);
      if (r.status !== 202) throw new Error(`${kind} answered ${r.status}`);
    }),
  );
  // One proxy is read alone; many through one list request per look, as the proxies screen
  // reads every status at once (a request per proxy every 50 ms would itself load Portico).
  const pending = new Set(ids);
  while (pending.size > 0) {
    const { json } = await client.request(
      'GET',
      ids.length === 1 ? `/api/proxy-configurations/${ids[0]}` : '/api/user/proxy-configurations',
    );
    for (const proxy of (ids.length === 1 ? [json] : json) as { id: string; status: string }[]) {
      if (!pending.has(proxy.id)) continue;
      if (proxy.status === 'completed') pending.delete(proxy.id);
      else if (proxy.status !== 'deploying') {
        // Why, in Portico's words, before the bench stops.
        await printLogs(client, proxy.id, []);
        throw new Error(`deployment ended ${proxy.status}`);
      }
    }
    if (pending.size > 0) await new Promise((r) => setTimeout(r, 50));
  }
  return performance.now() - started;
}

/**
 * Milliseconds of proxy-list requests started every SAMPLE_EVERY_MS (right after the last one
 * when it took longer) until `done` settles: a steady reader, far busier than any screen, rather
 * than requests back to back, which would make this bench the machine's busiest client.
 */
async function sampleList(client: HttpClient, done: Promise<unknown>): Promise<number[]> {
  let over = false;
  void done.finally(() => {
    over = true;
  });
  const samples: number[] = [];
  const at: number[] = [];
  const t0 = performance.now();
  while (!over) {
    const started = performance.now();
    const r = await client.request('GET', '/api/user/proxy-configurations');
    if (r.status !== 200) throw new Error(`proxy list answered ${r.status}`);
    const took = performance.now() - started;
    samples.push(took);
    at.push(started - t0);
    if (took < SAMPLE_EVERY_MS) await new Promise((r) => setTimeout(r, SAMPLE_EVERY_MS - took));
  }
  if (process.env.BENCH_DEPLOY_LOG) {
    const slowest = samples
      .map((ms, i) => ({ ms, at: at[i]! }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 12)
      .sort((a, b) => a.at - b.at);
    console.info('\n  slowest proxy-list requests during the ten (start since the deploys began):');
    for (const s of slowest) {
      console.info(
        `  ${(s.at / 1000).toFixed(2).padStart(6)} s  ${s.ms.toFixed(0).padStart(5)} ms`,
      );
    }
  }
  return samples;
}

function p99(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? 0;
}

const unavailable = labUnavailableReason();

export const benchmark: TBenchmark = {
  name: 'Deploy on lab servers: Portico (API → job → engine) vs plain SSH scripts',
  unavailable: unavailable ? `skipped: the lab cannot run here (${unavailable})` : undefined,
  async run(): Promise<TFigure[]> {
    // Every server runs cron, as a real one does (certbot's package schedules its renewal): the
    // lab's default, a container whose cron is stopped, would add Portico's setting up of renewal
    // to the first deploy, which neither script does.
    const lab = await startLab({ servers: SERVERS, variants: { '*': ['cron-running'] } });
    const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-deploy-'));
    // The lab's servers, CA and DNS stand for machines elsewhere, yet here they share this
    // machine's two cores with Portico: ten certbot runs at once would take CPU from it that no
    // real server could. Portico and this measuring process go first, as on a machine of their
    // own: every thread of this process now, and Portico (started after) inherits it.
    niceThisProcess(-10);
    const portico = await startPortico(
      { ...labEnv(lab.status), PORTICO_DATA_DIR: dataDir },
      benchNodeArgs(),
    );
    try {
      const labServers = lab.status.servers as TLabServer[];
      const servers = labServers.slice(0, AT_ONCE);
      const client = new HttpClient(portico.base);
      const registered = await client.request('POST', '/api/register', {
        username: 'bench_deploy',
        email: 'bench-deploy@example.test',
        password: 'Bench1234',
      });
      if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);

      // A first deploy, the same steps and the naive script, each on its own fresh server, in
      // rounds taken in turn: each figure is the median of its rounds.
      const ones: number[] = [];
      const floors: number[] = [];
      const naives: number[] = [];
      let first: string[] = [];
      for (let round = 0; round < FIRST_ROUNDS; round++) {
        const [a, b, c] = labServers.slice(round * 3, round * 3 + 3) as [
          TLabServer,
          TLabServer,
          TLabServer,
        ];
        const saved = await saveConfigurations(client, lab, [{ server: a, domain: a.domains[0]! }]);
        if (round === 0) first = saved;
        ones.push(await porticoDeploys(client, saved));
        floors.push(await scriptDeploy(lab, b, b.domains[0]!, FLOOR_SCRIPT));
        naives.push(await scriptDeploy(lab, c, c.domains[0]!, NAIVE_SCRIPT));
      }
      const [one, floor, naive] = [median(ones), median(floors), median(naives)];
      const redeploy = await porticoDeploys(client, first, 'redeploy');
      if (process.env.BENCH_DEPLOY_LOG) {
        await printLogs(client, first[0]!, ['first deploy', 'unchanged redeploy']);
      }

      const all = await saveConfigurations(
        client,
        lab,
        servers.map((server) => ({ server, domain: server.domains[2]! })),
      );
      const cpuBefore = cpuMs(portico.child);
      const machineBefore = machineCpuMs();
      const many = porticoDeploys(client, all);
      const [manyMs, samples] = await Promise.all([many, sampleList(client, many)]);
      // Less noisy than the wall time on a machine shared with the lab: what Portico itself used,
      // and what the whole machine (the ten servers, the CA, Portico, this process) did.
      const cpuTen = (cpuMs(portico.child) - cpuBefore) / 1000;
      const machineTen = (machineCpuMs() - machineBefore) / 1000;
      if (process.env.BENCH_DEPLOY_LOG) await printLogs(client, all[0]!, ['one of the ten']);
      const scriptsStarted = performance.now();
      const scriptsMachineBefore = machineCpuMs();
      await Promise.all(
        servers.map((server) => scriptDeploy(lab, server, server.domains[1]!, FLOOR_SCRIPT)),
      );
      const scriptsAtOnce = performance.now() - scriptsStarted;
      const scriptsMachine = (machineCpuMs() - scriptsMachineBefore) / 1000;
      // The lab's servers share this machine's cores with Portico: a machine busy for most of
      // the ten's wall time bounds them, whatever each deploy waits on.
      const cores = availableParallelism();
      const busy = (cpu: number, ms: number) =>
        `${cpu.toFixed(1)} s, ${((cpu / ((ms / 1000) * cores)) * 100).toFixed(0)} % of its ${cores} cores`;
      console.info(
        `\n  ${servers.length} at once: Portico's CPU ${cpuTen.toFixed(1)} s; the machine's ${busy(machineTen, manyMs)}` +
          `\n  the same-steps script ${servers.length} at once: the machine's ${busy(scriptsMachine, scriptsAtOnce)}`,
      );
      return [
        {
          label: 'first deploy',
          value: one / 1000,
          floor: floor / 1000,
          unit: ' s',
          goal: `same steps; medians of ${FIRST_ROUNDS}; goal ≤ 110 %`,
        },
        {
          label: 'first deploy',
          value: one / 1000,
          floor: naive / 1000,
          unit: ' s',
          goal: `naive certbot --nginx script; medians of ${FIRST_ROUNDS}; goal ≤ 60 %`,
        },
        {
          label: 'unchanged redeploy',
          value: redeploy / 1000,
          floor: 1.5,
          unit: ' s',
          goal: 'goal ≤ 1.5 s',
        },
        {
          label: `${servers.length} at once`,
          value: manyMs / 1000,
          floor: one / 1000,
          unit: ' s',
          goal: `one deploy; goal ≤ 200 %; ${JOB_TIMING.concurrency} deploy workers run them in ${Math.ceil(servers.length / JOB_TIMING.concurrency)} wave(s)`,
        },
        {
          label: `${servers.length} at once`,
          value: manyMs / 1000,
          floor: scriptsAtOnce / 1000,
          unit: ' s',
          goal: `the same-steps script on the ${servers.length} servers at once (what this machine allows)`,
        },
        {
          label: 'proxy list p99',
          value: p99(samples),
          floor: 50,
          unit: ' ms',
          goal: `${samples.length} requests during the ${servers.length}; goal < 50 ms`,
        },
      ];
    } finally {
      niceThisProcess(0);
      await stopPortico(portico);
      rmSync(dataDir, { recursive: true, force: true });
      await lab.stop();
    }
  },
};
