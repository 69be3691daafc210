// One lab test server: its own network namespace, mount/UTS/PID namespaces, and an init
// (server-init.sh) that builds the server's private view of the filesystem and starts sshd/nginx.
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { legacyDomain, SERVER_PORTS, type TLabNames, type TServerNames } from './names';
import { createMachineNetns } from './network';
import { tcpOpen } from './probe';
import { isAlive, runOk, startDaemon, waitFor } from './run';
import type { TLabServer, TServerVariant } from './types';

const INIT_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'server-init.sh');
const SAFE_VALUE = /^[A-Za-z0-9. _:-]*$/;

function newPassword(): string {
  return randomBytes(15).toString('base64url');
}

function envFile(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => {
      if (!SAFE_VALUE.test(value)) throw new Error(`unsafe value for ${key}`);
      return `${key}='${value}'\n`;
    })
    .join('');
}

async function makeHostKey(server: TServerNames): Promise<string> {
  const key = path.join(server.dir, 'ssh_host_ed25519_key');
  const comment = `root@${server.hostname}`;
  await runOk('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', key]);
  const line = await runOk('ssh-keygen', ['-lf', `${key}.pub`]);
  const fingerprint = line.split(' ')[1] ?? '';
  if (!fingerprint.startsWith('SHA256:')) throw new Error(`unexpected fingerprint: ${line}`);
  return fingerprint;
}

/** Finds the server's PID 1 as the real machine sees it. */
export function findInitPid(candidates: number[]): number | undefined {
  for (const pid of candidates) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const nspid = /^NSpid:\s+(.*)$/m.exec(status)?.[1]?.trim().split(/\s+/) ?? [];
      if (nspid.length > 1 && nspid[nspid.length - 1] === '1') return pid;
    } catch {
      // exited meanwhile
    }
  }
  return undefined;
}

export async function startServer(
  names: TLabNames,
  server: TServerNames,
  variants: TServerVariant[],
  domains: string[],
  listenerCaPath: string,
): Promise<TLabServer> {
  mkdirSync(server.dir, { recursive: true, mode: 0o700 });
  const users: TLabServer['users'] = [
    { name: 'root', password: newPassword(), sudo: false },
    { name: 'deploy', password: newPassword(), sudo: true },
  ];
  // Hashed here with SHA-512 crypt: chpasswd's default (yescrypt) costs ~60 ms of CPU per user.
  const hashes = (
    await runOk('openssl', ['passwd', '-6', '-stdin'], {
      input: users.map((u) => `${u.password}\n`).join(''),
    })
  )
    .trim()
    .split('\n');
  writeFileSync(
    path.join(server.dir, 'passwords'),
    users.map((u, i) => `${u.name}:${hashes[i]}\n`).join(''),
    { mode: 0o600 },
  );
  writeFileSync(
    path.join(server.dir, 'server.env'),
    envFile({
      LAB_HOSTNAME: server.hostname,
      LAB_SERVER_NAME: server.name,
      LAB_DNS: names.infraAddress,
      LAB_VARIANTS: variants.join(' '),
      LAB_LEGACY_DOMAIN: legacyDomain(server.name),
    }),
  );
  copyFileSync(listenerCaPath, path.join(server.dir, 'listener-ca.pem'));
  const [hostKeyFingerprint] = await Promise.all([
    makeHostKey(server),
    createMachineNetns(names, server.netns, server.link, server.address, SERVER_PORTS),
  ]);

  const unshare = ['unshare', '--mount', '--uts', '--pid', '--fork', '--mount-proc'];
  const argv = ['netns', 'exec', server.netns, ...unshare, '--kill-child=SIGTERM'];
  const logFile = path.join(server.dir, 'init.log');
  const pid = startDaemon('ip', [...argv, 'bash', INIT_SCRIPT, server.dir], { logFile });
  const expectsPort80 = !variants.includes('nginx-stopped');
  await waitFor(
    async () => {
      if (!isAlive(pid)) {
        throw new Error(`${server.name} failed to start:\n${readFileSync(logFile, 'utf8')}`);
      }
      const ready = readFileSync(logFile, 'utf8').includes('portico-lab-server-ready');
      return (
        ready &&
        (await tcpOpen(server.address, 22)) &&
        (!expectsPort80 || (await tcpOpen(server.address, 80)))
      );
    },
    20_000,
    () => `${server.name} not ready in 20 s:\n${readFileSync(logFile, 'utf8')}`,
  );
  return {
    name: server.name,
    address: server.address,
    hostname: server.hostname,
    sshPort: 22,
    users,
    hostKeyFingerprint,
    domains,
    variants,
  };
}
