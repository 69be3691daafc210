import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

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
  sudo: 'sudo',
  openssl: 'openssl',
  curl: 'curl',
  python3: 'python3',
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

function hasNginxCertbotPlugin(): boolean {
  try {
    accessSync('/usr/lib/python3/dist-packages/certbot_nginx', constants.R_OK);
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
  if (!hasNginxCertbotPlugin()) missing.add('python3-certbot-nginx');
  if (missing.size > 0) {
    return `missing packages: ${[...missing].join(' ')} (bash scripts/prereqs.sh installs them)`;
  }
  return undefined;
}

// The lab's own tests need root and Debian packages. Elsewhere they are left out with one line
// saying why; under CI=true a missing prerequisite fails the run.
const unavailable = labUnavailableReason();
if (unavailable && process.env.CI === 'true') {
  throw new Error(`testbed: lab tests cannot run: ${unavailable}`);
}
if (unavailable) console.info(`testbed: lab tests skipped: ${unavailable}`);

export default defineProject({
  // Also when run alone (--config testbed/vitest.config.ts), paths are relative to testbed/.
  root: path.dirname(fileURLToPath(import.meta.url)),
  test: {
    name: 'testbed',
    // Relative to this directory: testbed/**/*.test.ts.
    include: unavailable ? [] : ['**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
