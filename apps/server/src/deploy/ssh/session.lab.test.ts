// The SSH layer against a lab test server (testbed/): password logins as root and as a sudo
// user, the sudo gate, and writes through sudo. Needs what the lab needs (root, Debian packages).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import { sshFailure } from '../../../test/support/ssh-failure';
import { connectSsh, SudoRefusedError, type TSshSession } from './index';

let lab: TLab;
let server: TLabServer;
let keyDir: string;
const open: TSshSession[] = [];

const user = (name: 'root' | 'deploy') => server.users.find((u) => u.name === name)!;

async function login(
  username: string,
  auth: { password?: string; privateKey?: string },
): Promise<TSshSession> {
  const session = await connectSsh({
    host: server.address,
    port: server.sshPort,
    username,
    expectedFingerprint: server.hostKeyFingerprint,
    ...auth,
  });
  open.push(session);
  return session;
}

const failure = sshFailure;

async function labRoot(script: string, input?: string): Promise<string> {
  const r = await lab.exec(server.name, ['bash', '-c', script], input);
  if (r.code !== 0) throw new Error(`lab exec failed: ${r.stderr}`);
  return r.stdout;
}

beforeAll(async () => {
  lab = await startLab({ servers: 1 });
  server = lab.status.servers[0]!;
  keyDir = mkdtempSync(join(tmpdir(), 'portico-lab-keys-'));
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(keyDir, 'deploy')]);
  // Inside the test server only (its /home is a private tmpfs): a key for deploy, and a user
  // that may not use sudo.
  await labRoot(
    'install -d -m 700 -o deploy -g deploy ~deploy/.ssh && cat > ~deploy/.ssh/authorized_keys && chown deploy: ~deploy/.ssh/authorized_keys',
    readFileSync(join(keyDir, 'deploy.pub'), 'utf8'),
  );
  await labRoot(
    'useradd --create-home --shell /bin/bash nosudo && chpasswd',
    'nosudo:No-sudo-pw-1\n',
  );
});

afterAll(async () => {
  for (const s of open) s.close();
  await lab?.stop();
  if (keyDir) rmSync(keyDir, { recursive: true, force: true });
});

describe('password logins on a lab server', () => {
  it('root logs in with its password; the host key is the pinned one', async () => {
    const s = await login('root', { password: user('root').password });
    expect(s.fingerprint).toBe(server.hostKeyFingerprint);
    expect((await s.run('id -u', { sudo: true })).stdout).toBe('0\n');
  });

  it('a wrong password is auth_failed and the message does not contain it', async () => {
    const error = await failure(login('deploy', { password: 'Wrong-password-9' }));
    expect(error.code).toBe('auth_failed');
    expect(error.message).not.toContain('Wrong-password-9');
  });
});

describe('sudo as the deploy user', () => {
  let deploy: TSshSession;
  beforeAll(async () => {
    deploy = await login('deploy', { password: user('deploy').password });
  });

  it('runs as deploy without sudo and as root with it', async () => {
    expect(deploy.isRoot).toBe(false);
    expect((await deploy.run('id -un')).stdout).toBe('deploy\n');
    expect((await deploy.run('id -un', { sudo: true })).stdout).toBe('root\n');
  });

  it('keeps the password out of every process argv, stdout and stderr', async () => {
    const password = user('deploy').password;
    const r = await deploy.run('ps -eo args; echo done >&2', { sudo: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('sudo -S -p');
    expect(r.stdout).not.toContain(password);
    expect(r.stderr).toBe('done\n');
  });

  it('passes stdin, hostile args and streamed lines through sudo untouched', async () => {
    const args = ["it's", '$(id)', 'a\nb', '-n', '`x`'];
    const lines: string[] = [];
    const r = await deploy.run('for a; do printf "[%s]\\n" "$a"; done; cat; echo >&2 e1', {
      sudo: true,
      args,
      stdin: 'from stdin\n',
      onLine: (stream, line) => lines.push(`${stream}:${line}`),
    });
    expect(r.stdout).toBe("[it's]\n[$(id)]\n[a\nb]\n[-n]\n[`x`]\nfrom stdin\n");
    expect(r.stderr).toBe('e1\n');
    expect(lines).toEqual([
      "stdout:[it's]",
      'stdout:[$(id)]',
      'stdout:[a',
      'stdout:b]',
      'stdout:[-n]',
      'stdout:[`x`]',
      'stdout:from stdin',
      'stderr:e1',
    ]);
  });

  it('writes a root-owned file with its mode through sudo, leaving nothing behind', async () => {
    const path = '/etc/nginx/portico-write-test.conf';
    const content = 'server { listen 8081; }\n# ünïcode\n';
    await deploy.writeFile(path, content, 0o640);
    expect(await labRoot(`stat -c '%a %U %G' ${path}; cat ${path}`)).toBe(
      `640 root root\n${content}`,
    );
    await deploy.writeFile(path, 'v2\n', 0o644);
    expect(await labRoot(`stat -c '%a' ${path}; cat ${path}`)).toBe('644\nv2\n');
    expect(await labRoot('ls -a /etc/nginx | grep portico; ls /tmp')).toBe(
      'portico-write-test.conf\n',
    );
  });
});

describe('files through sudo', () => {
  it('reads a root-only file, and syncs a file only when it differs', async () => {
    const deploy = await login('deploy', { password: user('deploy').password });
    await labRoot('umask 077; printf "secret\\n" > /root/only-root');
    expect((await deploy.readFile('/root/only-root'))?.toString()).toBe('secret\n');
    const path = '/etc/nginx/portico-sync-test';
    expect(await deploy.syncFile(path, 'x\n', 0o644)).toBe(true);
    const inode = await labRoot(`stat -c %i ${path}`);
    expect(await deploy.syncFile(path, 'x\n', 0o644)).toBe(false);
    expect(await labRoot(`stat -c %i ${path}`)).toBe(inode);
    expect(await deploy.fileState(path)).toMatchObject({ exists: true, mode: 0o644 });
  });
});

describe('sudo refused', () => {
  it('a wrong sudo password is sudo_refused, and the password is not echoed', async () => {
    const privateKey = readFileSync(join(keyDir, 'deploy'), 'utf8');
    const s = await login('deploy', { privateKey, password: 'Not-the-sudo-pw' });
    const error = await failure(s.run('id -u', { sudo: true }));
    expect(error).toBeInstanceOf(SudoRefusedError);
    expect(error.code).toBe('sudo_refused');
    expect(error.message).toContain('sudo refused the password of deploy');
    expect((error as SudoRefusedError).sudoOutput).not.toContain('Not-the-sudo-pw');
    // The connection stays usable.
    expect((await s.run('id -un')).stdout).toBe('deploy\n');
  });

  it('a key login without a password cannot sudo: sudo_refused says a password is needed', async () => {
    const s = await login('deploy', { privateKey: readFileSync(join(keyDir, 'deploy'), 'utf8') });
    const error = await failure(s.run('id -u', { sudo: true }));
    expect(error.code).toBe('sudo_refused');
    expect(error.message).toContain('sudo needs a password for deploy');
  });

  it('sudo requiring a terminal is sudo_refused with that reason', async () => {
    const s = await login('deploy', { password: user('deploy').password });
    await labRoot('echo "Defaults requiretty" > /etc/sudoers.d/portico-tty');
    try {
      const error = await failure(s.run('id -u', { sudo: true }));
      expect(error.code).toBe('sudo_refused');
      expect(error.message).toContain('requires a terminal');
    } finally {
      await labRoot('rm /etc/sudoers.d/portico-tty');
    }
  });

  it('a server without sudo is sudo_refused with that reason', async () => {
    const s = await login('deploy', { password: user('deploy').password });
    await labRoot('mv /usr/bin/sudo /usr/bin/sudo.off');
    try {
      const error = await failure(s.run('id -u', { sudo: true }));
      expect(error.code).toBe('sudo_refused');
      expect(error.message).toContain('sudo is not installed');
    } finally {
      await labRoot('mv /usr/bin/sudo.off /usr/bin/sudo');
    }
  });

  it('a user outside sudoers is sudo_refused with that reason', async () => {
    const s = await login('nosudo', { password: 'No-sudo-pw-1' });
    const error = await failure(s.run('id -u', { sudo: true }));
    expect(error.code).toBe('sudo_refused');
    expect(error.message).toContain('not allowed to use sudo');
  });
});
