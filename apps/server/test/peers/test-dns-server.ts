// Test support: a real DNS server (dnsmasq, Debian package) on 127.0.0.1 answering test names
// only; nothing is forwarded anywhere.
import { type ChildProcess, spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { freePort } from './test-sshd';

export interface TTestDnsServer {
  /** host:port for PORTICO_DNS_SERVERS. */
  address: string;
  stop(): Promise<void>;
}

export interface TTestDnsRecords {
  /** name → IPv4 answered for A queries. */
  a?: Record<string, string>;
  /** name → several IPv4 addresses answered together. */
  extraA?: Record<string, string[]>;
  /** name → IPv6 (the name then has no A record). */
  aaaa?: Record<string, string>;
  /** Zone answered locally: every other name in it is NXDOMAIN. */
  zone: string;
}

async function answers(address: string, name: string): Promise<boolean> {
  const resolver = new Resolver({ timeout: 200, tries: 1 });
  resolver.setServers([address]);
  return resolver.resolve4(name).then(
    () => true,
    () => false,
  );
}

const START_TIMEOUT_MS = 10_000;
const START_ATTEMPTS = 3;

export async function startTestDnsServer(records: TTestDnsRecords): Promise<TTestDnsServer> {
  // The free port may be taken by another process before dnsmasq binds it: try a new one.
  let lastError: Error | undefined;
  for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
    try {
      return await startOnce(records, await freePort());
    } catch (error) {
      lastError = error as Error;
    }
  }
  throw lastError;
}

async function startOnce(records: TTestDnsRecords, port: number): Promise<TTestDnsServer> {
  const args = [
    '--no-daemon',
    `--port=${port}`,
    '--listen-address=127.0.0.1',
    '--bind-interfaces',
    '--no-resolv',
    '--no-hosts',
    `--local=/${records.zone}/`,
    ...Object.entries(records.a ?? {}).map(([name, ip]) => `--address=/${name}/${ip}`),
    ...Object.entries(records.extraA ?? {}).flatMap(([name, ips]) =>
      ips.map((ip) => `--address=/${name}/${ip}`),
    ),
    ...Object.entries(records.aaaa ?? {}).map(([name, ip]) => `--host-record=${name},${ip}`),
  ];
  const child: ChildProcess = spawn('dnsmasq', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const address = `127.0.0.1:${port}`;
  const probe = Object.keys(records.a ?? {})[0];
  // A refused probe fails at once: wait by the clock, not by a number of probes, so a slow
  // start on a busy machine is still waited for.
  const deadline = Date.now() + START_TIMEOUT_MS;
  let ready = false;
  while (!ready && child.exitCode === null && Date.now() < deadline) {
    ready = probe ? await answers(address, probe) : true;
    if (!ready) await new Promise((r) => setTimeout(r, 50));
  }
  if (!ready || child.exitCode !== null) {
    child.kill('SIGTERM');
    throw new Error(`dnsmasq did not start on port ${port}: ${stderr.trim() || 'no answer'}`);
  }
  return {
    address,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** A UDP port that takes queries and never answers: the resolver times out. */
export async function startSilentDnsServer(): Promise<TTestDnsServer> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', () => {});
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    stop: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
