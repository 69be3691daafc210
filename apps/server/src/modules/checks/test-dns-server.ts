// Test support: a real DNS server (dnsmasq, Debian package) on 127.0.0.1 answering test names
// only; nothing is forwarded anywhere.
import { type ChildProcess, spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { freePort } from '../../deploy/ssh/test-sshd';

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

export async function startTestDnsServer(records: TTestDnsRecords): Promise<TTestDnsServer> {
  const port = await freePort();
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
  let ready = false;
  for (let i = 0; i < 50 && child.exitCode === null && !ready; i++) {
    ready = probe ? await answers(address, probe) : true;
  }
  if (!ready || child.exitCode !== null) {
    child.kill('SIGTERM');
    throw new Error(`dnsmasq did not start: ${stderr.trim()}`);
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
