// Test support: a throwaway sshd on 127.0.0.1 for the SSH layer's own tests (key login as root,
// and on request a root password). Nothing on the machine changes: host key, client key and
// config live in a temp dir, and the privilege-separation directory sshd insists on (/run/sshd)
// is made on a private tmpfs inside a mount namespace of its own, where /root is an empty tmpfs
// as well and /etc/shadow, when a password is asked for, a copy holding only that password.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TLocalSshd {
  host: string;
  port: number;
  /** `ssh-keygen -lf` of the host key, e.g. `SHA256:…`. */
  hostKeyFingerprint: string;
  /** OpenSSH private key authorised for root. */
  clientKey: string;
  /** Another valid key that is NOT authorised. */
  strangerKey: string;
  dir: string;
  stop(): Promise<void>;
}

export interface TLocalSshdOptions {
  /** root may also log in with this password (OpenSSH's own password check, no PAM). */
  rootPassword?: string;
  /**
   * Every session sources this shell script instead of running the command asked for (sshd's
   * ForceCommand; the command is in $SSH_ORIGINAL_COMMAND, the session process is $PPID, and
   * $PORTICO_SSHD_DIR is this sshd's directory, `dir`, seen from the tests too).
   */
  forceScript?: string;
}

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

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}

function keygen(path: string): void {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'portico-test', '-f', path]);
}

/** A shadow file whose only entry is root with this password's SHA-512 crypt hash. */
function shadowFile(dir: string, password: string): string {
  const hash = execFileSync('openssl', ['passwd', '-6', '-stdin'], { input: password })
    .toString()
    .trim();
  const path = join(dir, 'shadow');
  writeFileSync(path, `root:${hash}:19000:0:99999:7:::\n`, { mode: 0o600 });
  return path;
}

export async function startLocalSshd(options: TLocalSshdOptions = {}): Promise<TLocalSshd> {
  const dir = mkdtempSync(join(tmpdir(), 'portico-sshd-'));
  const shadow = options.rootPassword === undefined ? '' : shadowFile(dir, options.rootPassword);
  if (options.forceScript !== undefined) writeFileSync(join(dir, 'force.sh'), options.forceScript);
  keygen(join(dir, 'host_ed25519'));
  keygen(join(dir, 'client'));
  keygen(join(dir, 'stranger'));
  copyFileSync(join(dir, 'client.pub'), join(dir, 'authorized_keys'));
  const port = await freePort();
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      'ListenAddress 127.0.0.1',
      `HostKey ${dir}/host_ed25519`,
      `PidFile ${dir}/sshd.pid`,
      `AuthorizedKeysFile ${dir}/authorized_keys`,
      shadow ? 'PermitRootLogin yes' : 'PermitRootLogin prohibit-password',
      shadow ? 'PasswordAuthentication yes' : 'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'StrictModes no',
      'Subsystem sftp internal-sftp',
      'LogLevel ERROR',
      `SetEnv PORTICO_SSHD_DIR=${dir}`,
      ...(options.forceScript === undefined ? [] : [`ForceCommand . ${dir}/force.sh`]),
      '',
    ].join('\n'),
  );
  const fingerprint = execFileSync('ssh-keygen', ['-lf', join(dir, 'host_ed25519.pub')])
    .toString()
    .split(' ')[1]!;

  const child: ChildProcess = spawn(
    'unshare',
    [
      '--mount',
      '--propagation',
      'private',
      '--',
      'sh',
      '-c',
      // A private /root too: this machine's root .bashrc (sourced by bash under sshd) is
      // not part of what is tested, and it is slow.
      'mount -t tmpfs -o mode=755 tmpfs /run && mkdir -m 755 /run/sshd && mount -t tmpfs -o mode=700 tmpfs /root && { [ -z "$3" ] || mount --bind "$3" /etc/shadow; } && exec /usr/sbin/sshd -D -e -f "$1" -p "$2"',
      'sh',
      config,
      String(port),
      shadow,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  for (let i = 0; i < 100 && child.exitCode === null; i++) {
    if (await canConnect(port)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  if (child.exitCode !== null || !(await canConnect(port))) {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`the test sshd did not start: ${stderr.trim()}`);
  }

  return {
    host: '127.0.0.1',
    port,
    hostKeyFingerprint: fingerprint,
    clientKey: readFileSync(join(dir, 'client'), 'utf8'),
    strangerKey: readFileSync(join(dir, 'stranger'), 'utf8'),
    dir,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
