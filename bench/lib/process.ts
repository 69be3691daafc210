import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface TServerProcess {
  url: string;
  child: ChildProcess;
  /** Milliseconds from spawning the process to its first healthy /healthz answer. */
  startMs: number;
  /** CPU time (user + system) the process had used by then: what the start costs on a busy machine. */
  startCpuMs: number;
  stop(): Promise<void>;
}

export interface TStartOptions {
  timeoutMs?: number;
  /**
   * Plain JavaScript (a built bundle) runs on node alone; anything else through tsx, as every
   * TypeScript server here is started.
   */
  plainNode?: boolean;
}

/**
 * Extra node flags for Portico's process, e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/p"
 * to profile it under a benchmark's load (the floors never get them).
 */
export function benchNodeArgs(): string[] {
  return (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
}

/**
 * Starts a server entry point and waits until GET /healthz answers. Its output is discarded: a
 * benchmark must not slow down on a full pipe.
 */
export async function startServer(
  entry: string,
  env: NodeJS.ProcessEnv,
  options: TStartOptions & { nodeArgs?: string[] } = {},
): Promise<TServerProcess> {
  const { timeoutMs = 60_000, plainNode = entry.endsWith('.js'), nodeArgs = [] } = options;
  const port = await freePort();
  const started = performance.now();
  const args = [...nodeArgs, ...(plainNode ? [] : ['--import', 'tsx']), entry];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${entry} did not start within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    url,
    child,
    startMs: performance.now() - started,
    startCpuMs: cpuMs(child),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** CPU time (user + system) a process has used, in ms (Linux: /proc/<pid>/stat, in clock ticks). */
export function cpuMs(child: ChildProcess): number {
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) in parentheses: utime is the 12th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
}

/**
 * CPU time the whole machine has spent busy (every core: user, nice, system, irq, softirq,
 * steal; /proc/stat counts in USER_HZ, 100 a second on Linux), in ms.
 */
export function machineCpuMs(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return (user! + nice! + system! + irq! + softirq! + (steal ?? 0)) * (1000 / 100);
}

/** Resident memory of a process in MiB (Linux: VmRSS in /proc), what the kernel holds for it. */
export function rssMiB(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
  if (!Number.isFinite(kb)) throw new Error(`no VmRSS for process ${child.pid}`);
  return kb / 1024;
}
