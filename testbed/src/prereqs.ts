import { accessSync, constants } from 'node:fs';
import path from 'node:path';

// Whether this machine can run the lab, without side effects: both lab tiers' configs ask.

/** Command → Debian package providing it (what scripts/prereqs.sh installs). */
const COMMANDS: Record<string, string> = {
  ip: 'iproute2',
  unshare: 'util-linux',
  nsenter: 'util-linux',
  sshd: 'openssh-server',
  'ssh-keygen': 'openssh-client',
  nginx: 'nginx',
  certbot: 'certbot',
  pebble: 'pebble',
  dnsmasq: 'dnsmasq',
  // The DNS-01 lab's authoritative DNS (bind.ts).
  named: 'bind9',
  sudo: 'sudo',
  openssl: 'openssl',
  curl: 'curl',
  python3: 'python3',
  // Lab servers have cron's binary, stopped: a deployment starts it for certbot's renewal.
  cron: 'cron',
};
const SEARCH_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

function hasCommand(name: string): boolean {
  return SEARCH_PATH.some((dir) => {
    try {
      accessSync(path.join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function hasPythonPackage(name: string): boolean {
  try {
    accessSync(`/usr/lib/python3/dist-packages/${name}`, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** Why the lab cannot run on this machine, or undefined. Also used by apps/server's lab tier. */
export function labUnavailableReason(): string | undefined {
  if (process.platform !== 'linux') return 'the lab needs Linux network namespaces';
  if (process.getuid?.() !== 0) return 'the lab needs root (network namespaces and mounts)';
  const missing = new Set(
    Object.entries(COMMANDS)
      .filter(([command]) => !hasCommand(command))
      .map(([, pkg]) => pkg),
  );
  if (!hasPythonPackage('certbot_nginx')) missing.add('python3-certbot-nginx');
  if (!hasPythonPackage('certbot_dns_rfc2136')) missing.add('python3-certbot-dns-rfc2136');
  if (missing.size > 0) {
    return `missing packages: ${[...missing].join(' ')} (bash scripts/prereqs.sh installs them)`;
  }
  return undefined;
}
