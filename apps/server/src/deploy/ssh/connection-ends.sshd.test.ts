// Every SSH operation ends, on every way the other side can end or stall a connection: a real
// OpenSSH given a password holding a NUL (it drops the connection, and ssh2 says nothing but
// end/close), peers that close or go silent right after the banner or in the middle of the key
// exchange, and a real sshd whose session dies or freezes in the middle of a command. Each
// attempt must settle with a classified SshError, never hang. Needs root (see test-sshd.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cutRelay,
  misbehavingPeer,
  type TPeer,
  type TPeerBehaviour,
} from '../../../test/peers/test-peers';
import { startLocalSshd, type TLocalSshd } from '../../../test/peers/test-sshd';
import { sshFailure } from '../../../test/support/ssh-failure';
import { connectSsh, type TSshErrorCode } from './index';

const PASSWORD = 'Right-pw-1';
let sshd: TLocalSshd;

beforeAll(async () => {
  // Every session runs the command asked for, except two that make the session process (the
  // script's parent) die or freeze; the frozen one's pids are written down for thaw().
  sshd = await startLocalSshd({
    rootPassword: PASSWORD,
    forceScript: [
      'case "$SSH_ORIGINAL_COMMAND" in',
      '*portico-test-die*) kill -9 $PPID ;;',
      '*portico-test-freeze*) echo "$PPID $$" > "$PORTICO_SSHD_DIR/frozen"; kill -STOP $PPID; exec sleep 600 ;;',
      '*) eval "$SSH_ORIGINAL_COMMAND" ;;',
      'esac',
      '',
    ].join('\n'),
  });
});

afterAll(async () => {
  await sshd?.stop();
});

const failure = sshFailure;

const login = (port: number, password = PASSWORD, extra: { keepaliveMs?: number } = {}) =>
  connectSsh({ host: '127.0.0.1', port, username: 'root', password, timeoutMs: 2000, ...extra });

describe('connectSsh settles on every way the server can end the attempt', () => {
  it('the real sshd: the right password logs in (so each failure below is the peer’s doing)', async () => {
    const session = await login(sshd.port);
    expect((await session.run('id -u')).stdout).toBe('0\n');
    session.close();
  });

  it('a password holding a NUL: OpenSSH drops the connection; the attempt fails, naming the close', async () => {
    const error = await failure(login(sshd.port, `${PASSWORD}\0x`));
    expect(error.code).toBe('closed_by_server');
    expect(error.message).toBe(
      `The SSH server at 127.0.0.1:${sshd.port} closed the connection before the login finished.`,
    );
    expect(error.message).not.toContain(PASSWORD);
  });

  const peers: [TPeerBehaviour, TSshErrorCode[]][] = [
    // Nothing was said, not even an SSH banner: ssh2 sees the close before it writes (no SSH
    // handshake: 'protocol') or while it writes (a reset: the server closed it).
    ['close-at-once', ['protocol', 'closed_by_server']],
    ['banner-then-close', ['closed_by_server']],
    ['banner-then-silence', ['timeout']],
  ];
  for (const [behaviour, codes] of peers) {
    it(`a peer that does ${behaviour}: ${codes.join(' or ')}`, async () => {
      const peer = await misbehavingPeer(behaviour);
      try {
        const error = await failure(login(peer.port));
        expect(codes).toContain(error.code);
        expect(error.message).toContain(`127.0.0.1:${peer.port}`);
        expect(peer.connections()).toBe(1);
      } finally {
        await peer.close();
      }
    });
  }

  for (const [then, code] of [
    ['close', 'closed_by_server'],
    ['silence', 'timeout'],
  ] as const) {
    it(`the real sshd cut in the middle of the key exchange (${then}): ${code}`, async () => {
      let relay: TPeer | undefined;
      try {
        relay = await cutRelay({ host: '127.0.0.1', port: sshd.port }, then);
        const error = await failure(login(relay.port));
        expect(error.code).toBe(code);
      } finally {
        await relay?.close();
      }
    });
  }
});

describe('a command settles when the connection dies or freezes under it', () => {
  it('the session process is killed mid-command: connection_lost, naming it', async () => {
    const session = await login(sshd.port);
    const error = await failure(session.run('echo portico-test-die; sleep 30'));
    expect(error.code).toBe('connection_lost');
    expect(error.message).toBe('The connection closed before the command finished.');
    expect((await failure(session.run('true'))).code).toBe('connection_lost');
  });

  it('the session process freezes mid-command (no timeout given): the keepalive gives up', async () => {
    const session = await login(sshd.port, PASSWORD, { keepaliveMs: 300 });
    try {
      const error = await failure(session.run('echo portico-test-freeze'));
      expect(error.code).toBe('connection_lost');
    } finally {
      thaw();
    }
  });

  it('the session process freezes mid-command (a timeout given): timeout', async () => {
    const session = await login(sshd.port);
    try {
      const error = await failure(session.run('echo portico-test-freeze', { timeoutMs: 500 }));
      expect(error.code).toBe('timeout');
    } finally {
      thaw();
      session.close();
    }
  });
});

/** Ends the frozen session process and its sleep (both started by this test's sshd). */
function thaw(): void {
  const pids = readFileSync(join(sshd.dir, 'frozen'), 'utf8').trim().split(' ').map(Number);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
