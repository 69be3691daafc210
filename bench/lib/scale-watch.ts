import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sweep } from '../../apps/server/src/modules/certificates/certificate-watch';
import { createCertificatesRepository } from '../../apps/server/src/modules/certificates/certificates.repository';
import { createCertificateActionHistory } from '../../apps/server/src/modules/deployments/certificate-action-history.repository';
import { createProxyCertificateReads } from '../../apps/server/src/modules/proxies/proxy-certificates.repository';
import { insertManyProxies } from '../../apps/server/test/support/many-proxies';
import { createTestPki } from '../../apps/server/test/support/test-pki';
import { REPO_ROOT } from './process';
import { scaleApp, signedIn } from './scale-app';

// A loopback address of its own: nothing else on this machine answers there on 443 and 80.
const FAR_SIDE = '127.38.0.1';

async function farSide(key: string, cert: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['bench/watch-far-side.js'], {
    cwd: REPO_ROOT,
    env: { ...process.env, WATCH_ADDRESS: FAR_SIDE, WATCH_KEY: key, WATCH_CERT: cert },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  if (!line.toString().includes('ready')) throw new Error(`far side: ${line}`);
  return child;
}

/**
 * One pass of the certificate watch over `n` HTTPS sites, the real sweep with its defaults
 * (batches of 200, 4 at a time, up to 100 ms of jitter before each check) and the real check
 * (TLS handshake, chain verified against the bench's CA given as PORTICO_EXTRA_CA_FILE, plain
 * HTTP asked for its redirect), each result recorded and judged for alerts in an in-memory
 * PGlite. Every site answers, at one address of this machine, from a process of its own
 * (bench/watch-far-side.js): what a pass costs when every site is up; an unreachable site costs
 * its deadlines instead. Answers the duration, the CPU this process used, and the alerts raised
 * (none expected: every certificate is fine).
 */
export async function watchPass(
  n: number,
): Promise<{ ms: number; cpuMs: number; checked: number; failed: number; alerts: number }> {
  const pki = createTestPki();
  const dir = mkdtempSync(join(tmpdir(), 'portico-bench-watch-'));
  const t = await scaleApp();
  let server: ChildProcess | undefined;
  try {
    const leaf = pki.leaf({
      names: ['*.example.com'],
      from: new Date(Date.now() - 86_400_000),
      to: new Date(Date.now() + 60 * 86_400_000),
    });
    const caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, pki.caPem);
    server = await farSide(leaf.key, leaf.cert);
    const owner = await signedIn(t);
    await insertManyProxies(t.database.db, owner.user.id, n, {
      prefix: `w${process.pid}-${n}`,
      shape: () => ({ serverIp: FAR_SIDE, sslConfigured: true, status: 'completed' as const }),
    });
    let alerts = 0;
    const cpuBefore = process.cpuUsage();
    const result = await sweep({
      certificates: createCertificatesRepository(t.database.db, {
        proxies: createProxyCertificateReads,
        history: (db) => createCertificateActionHistory(db, createProxyCertificateReads),
      }),
      alerts: {
        send: async () => {
          alerts += 1;
        },
      },
      extraCaFile: caFile,
      now: () => new Date(),
      log: { warn: () => {}, info: () => {} },
    });
    const cpu = process.cpuUsage(cpuBefore);
    return { ...result, cpuMs: (cpu.user + cpu.system) / 1000, alerts };
  } finally {
    server?.kill();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
    pki.remove();
  }
}
