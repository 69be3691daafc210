// The SSH layer against a real sshd on 127.0.0.1 (key login as root). Needs root, unshare
// (util-linux) and openssh-server. Password and sudo logins are tested on the lab servers
// (session.lab.test.ts).
import { createHash, randomBytes } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startLocalSshd, type TLocalSshd } from '../../../test/peers/test-sshd';
import { sshFailure } from '../../../test/support/ssh-failure';
import { CommandTimeoutError, connectSsh, HostKeyMismatchError, type TSshSession } from './index';

let sshd: TLocalSshd;
let session: TSshSession;
let scratch: string;

beforeAll(async () => {
  sshd = await startLocalSshd();
  scratch = mkdtempSync(join(tmpdir(), 'portico-ssh-files-'));
  session = await connectSsh({
    host: sshd.host,
    port: sshd.port,
    username: 'root',
    privateKey: sshd.clientKey,
  });
});

afterAll(async () => {
  session?.close();
  await sshd?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const failure = sshFailure;

describe('connectSsh', () => {
  it('logs in with a key and reports the host key fingerprint as ssh-keygen -lf does', () => {
    expect(sshd.hostKeyFingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(session.fingerprint).toBe(sshd.hostKeyFingerprint);
    expect(session.isRoot).toBe(true);
  });

  it('accepts the pinned fingerprint', async () => {
    const s = await connectSsh({
      host: sshd.host,
      port: sshd.port,
      username: 'root',
      privateKey: sshd.clientKey,
      expectedFingerprint: sshd.hostKeyFingerprint,
    });
    expect((await s.run('echo ok')).stdout).toBe('ok\n');
    s.close();
  });

  it('refuses another host key, naming both fingerprints', async () => {
    const pinned = 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const error = await failure(
      connectSsh({
        host: sshd.host,
        port: sshd.port,
        username: 'root',
        privateKey: sshd.clientKey,
        expectedFingerprint: pinned,
      }),
    );
    expect(error).toBeInstanceOf(HostKeyMismatchError);
    expect(error.code).toBe('host_key_mismatch');
    expect((error as HostKeyMismatchError).expectedFingerprint).toBe(pinned);
    expect((error as HostKeyMismatchError).actualFingerprint).toBe(sshd.hostKeyFingerprint);
    expect(error.message).toContain(pinned);
    expect(error.message).toContain(sshd.hostKeyFingerprint);
  });

  it('reports a key the server does not accept as key_refused, not as a refused password', async () => {
    const error = await failure(
      connectSsh({
        host: sshd.host,
        port: sshd.port,
        username: 'root',
        privateKey: sshd.strangerKey,
      }),
    );
    expect(error.code).toBe('key_refused');
  });

  it('reports a password on a key-only server as auth_failed, without the password', async () => {
    const error = await failure(
      connectSsh({ host: sshd.host, port: sshd.port, username: 'root', password: 'S3cr3t-pw' }),
    );
    expect(error.code).toBe('auth_failed');
    expect(error.message).not.toContain('S3cr3t-pw');
  });

  it('reports an unreadable private key as invalid_key', async () => {
    const error = await failure(
      connectSsh({ host: sshd.host, port: sshd.port, username: 'root', privateKey: 'nonsense' }),
    );
    expect(error.code).toBe('invalid_key');
  });

  it('reports a server that accepts TCP but never speaks SSH as timeout', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const error = await failure(
        connectSsh({ host: '127.0.0.1', port, username: 'root', password: 'x', timeoutMs: 500 }),
      );
      expect(error.code).toBe('timeout');
      expect(error.message).toContain(`127.0.0.1:${port}`);
    } finally {
      silent.close();
    }
  });

  it('reports a closed port as tcp_connect with the address', async () => {
    const port = await freePort();
    const error = await failure(
      connectSsh({ host: '127.0.0.1', port, username: 'root', privateKey: sshd.clientKey }),
    );
    expect(error.code).toBe('tcp_connect');
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.message).toContain('refused');
  });
});

describe('run', () => {
  it('streams stdout and stderr line by line, each in order, with the exit code', async () => {
    const lines: [string, string][] = [];
    const r = await session.run(
      'for i in $(seq 1 300); do echo "out $i"; echo "err $i" >&2; done; printf tail; exit 3',
      { onLine: (stream, line) => lines.push([stream, line]) },
    );
    expect(r.code).toBe(3);
    const out = lines.filter(([s]) => s === 'stdout').map(([, l]) => l);
    const err = lines.filter(([s]) => s === 'stderr').map(([, l]) => l);
    expect(out).toEqual([...Array.from({ length: 300 }, (_, i) => `out ${i + 1}`), 'tail']);
    expect(err).toEqual(Array.from({ length: 300 }, (_, i) => `err ${i + 1}`));
    expect(r.stdout.endsWith('out 300\ntail')).toBe(true);
    expect(r.stderr.split('\n')).toHaveLength(301);
  });

  it('passes hostile arguments intact as $1, $2, …', async () => {
    const hostile = fc.string({
      unit: fc.oneof(
        fc.constantFrom("'", '"', '\\', '$(id)', '`id`', ';', '\n', '\r', '-', ' ', '*', '\u2028'),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => c !== '\0'),
      ),
      maxLength: 30,
    });
    await fc.assert(
      fc.asyncProperty(fc.array(hostile, { maxLength: 5 }), async (args) => {
        const r = await session.run('printf "%s\\n" "$#"; for a; do printf "%s\\0" "$a"; done', {
          args,
        });
        const [count, ...rest] = r.stdout.split('\n');
        expect(Number(count)).toBe(args.length);
        expect(rest.join('\n')).toBe(args.map((a) => `${a}\0`).join(''));
      }),
      { numRuns: 40 },
    );
  });

  it('feeds stdin to the script, and the script text never travels on stdin', async () => {
    const data = "line one\n$(id) `id` 'q'\nno newline at end";
    const r = await session.run('cat; echo; echo after', { stdin: data });
    expect(r.stdout).toBe(`${data}\nafter\n`);
  });

  it('gives a script without stdin an immediate end of input', async () => {
    const r = await session.run('cat; echo done');
    expect(r.stdout).toBe('done\n');
  });

  it('kills a command that runs past its timeout, keeping what it printed before', async () => {
    const error = await failure(session.run('echo PORTICO_PART=one; sleep 30', { timeoutMs: 300 }));
    expect(error.code).toBe('timeout');
    expect(error).toBeInstanceOf(CommandTimeoutError);
    expect((error as CommandTimeoutError).stdout).toBe('PORTICO_PART=one\n');
    expect(error.message).not.toContain('PORTICO_PART');
    expect(JSON.stringify({ ...error, error })).not.toContain('PORTICO_PART');
    expect((await session.run('echo still usable')).stdout).toBe('still usable\n');
  });

  it('runs with sudo directly when logged in as root', async () => {
    const r = await session.run('id -u', { sudo: true });
    expect(r.stdout).toBe('0\n');
  });
});

describe('writeFile', () => {
  it('writes content with the mode given, leaving no temp file', async () => {
    const path = join(scratch, 'site.conf');
    await session.writeFile(path, 'server {}\n', 0o640);
    expect(readFileSync(path, 'utf8')).toBe('server {}\n');
    expect(statSync(path).mode & 0o7777).toBe(0o640);
    await session.writeFile(path, 'v2\n', 0o600);
    expect(readFileSync(path, 'utf8')).toBe('v2\n');
    expect(statSync(path).mode & 0o7777).toBe(0o600);
    expect(readdirSync(scratch)).toEqual(['site.conf']);
  });

  // Small world-readable content goes in one command line, the rest through SFTP.
  it.each([
    ['through SFTP', 512 * 1024, 768 * 1024],
    ['in one command', 20 * 1024, 30 * 1024],
  ])(
    'replaces a file atomically %s: a reader never sees a partial file',
    async (_how, sizeA, sizeB) => {
      const path = join(scratch, 'big');
      const a = Buffer.alloc(sizeA, 'a');
      const b = Buffer.alloc(sizeB, 'b');
      const hash = (x: Buffer) => createHash('sha256').update(x).digest('hex');
      const stop = join(scratch, 'stop');
      writeFileSync(path, a);
      // Reads until told to stop, so the reads surely overlap the writes.
      const reader = session.run('while [ ! -e "$2" ]; do sha256sum < "$1" | cut -d" " -f1; done', {
        args: [path, stop],
      });
      for (let i = 0; i < 10; i++) await session.writeFile(path, i % 2 ? a : b, 0o644);
      writeFileSync(stop, '');
      const seen = new Set((await reader).stdout.trim().split('\n'));
      expect(seen).toContain(hash(b));
      for (const h of seen) expect([hash(a), hash(b)]).toContain(h);
      rmSync(stop);
      expect(readdirSync(scratch).filter((n) => n.includes('portico'))).toEqual([]);
    },
  );

  it('writes any bytes exactly with the mode given, in one command or through SFTP', async () => {
    for (const [size, mode] of [
      [40 * 1024, 0o644],
      [40 * 1024, 0o604],
      [40 * 1024, 0o640],
      [100 * 1024, 0o644],
    ] as const) {
      const path = join(scratch, `bytes-${size}-${mode.toString(8)}`);
      const bytes = randomBytes(size);
      await session.writeFile(path, bytes, mode);
      expect(readFileSync(path).equals(bytes)).toBe(true);
      expect(statSync(path).mode & 0o7777).toBe(mode);
      expect(statSync(path).uid).toBe(0);
    }
    expect(readdirSync(scratch).filter((n) => n.includes('portico'))).toEqual([]);
  });

  it('refuses relative or unusual paths and bad modes', async () => {
    for (const bad of ['relative', '/a/../b', '/a//b', '/a/b c', '/a/$(id)', '/a/\n']) {
      expect((await failure(session.writeFile(bad, 'x', 0o644))).code).toBe('protocol');
    }
    expect((await failure(session.writeFile(join(scratch, 'm'), 'x', 0o10000))).code).toBe(
      'protocol',
    );
  });

  it('refuses a directory standing at the path, in one command and through SFTP, writing nothing into it', async () => {
    const path = join(scratch, 'taken');
    mkdirSync(path);
    for (const mode of [0o644, 0o600]) {
      const error = await failure(session.writeFile(path, 'x', mode));
      expect(error.message).toContain('taken');
      expect(readdirSync(path)).toEqual([]);
    }
    expect(readdirSync(scratch).filter((n) => n.includes('portico'))).toEqual([]);
    rmSync(path, { recursive: true });
  });

  it('fails cleanly when the directory does not exist', async () => {
    const error = await failure(session.writeFile(join(scratch, 'nope', 'f'), 'x', 0o644));
    expect(error.message).toContain('nope/f');
  });
});

describe('fileState, readFile, syncFile', () => {
  it('reports an absent file, then its mode and hash', async () => {
    const path = join(scratch, 'state');
    expect(await session.fileState(path)).toEqual({ exists: false });
    expect(await session.readFile(path)).toBeUndefined();
    writeFileSync(path, 'abc', { mode: 0o604 });
    expect(await session.fileState(path)).toEqual({
      exists: true,
      mode: 0o604,
      sha256: createHash('sha256').update('abc').digest('hex'),
    });
  });

  it('reads any bytes back exactly', async () => {
    const path = join(scratch, 'binary');
    const bytes = randomBytes(100_000);
    writeFileSync(path, bytes);
    expect((await session.readFile(path))?.equals(bytes)).toBe(true);
  });

  it('writes only when content or mode differ, so a second run touches nothing', async () => {
    const path = join(scratch, 'synced');
    expect(await session.syncFile(path, 'one\n', 0o644)).toBe(true);
    const first = statSync(path);
    expect(await session.syncFile(path, 'one\n', 0o644)).toBe(false);
    const second = statSync(path);
    expect([second.ino, second.mtimeMs]).toEqual([first.ino, first.mtimeMs]);
    expect(await session.syncFile(path, 'one\n', 0o600)).toBe(true);
    expect(statSync(path).mode & 0o7777).toBe(0o600);
    expect(await session.syncFile(path, 'two\n', 0o600)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('two\n');
    // World-readable content is compared and written on the server by one script: the mode
    // alone differing is a write too, and the same bytes and mode again are not.
    expect(await session.syncFile(path, 'two\n', 0o644)).toBe(true);
    expect(statSync(path).mode & 0o7777).toBe(0o644);
    const third = statSync(path);
    expect(await session.syncFile(path, 'two\n', 0o644)).toBe(false);
    expect(statSync(path).ino).toBe(third.ino);
  });
});

describe('close', () => {
  it('ends the session; later calls fail with connection_lost', async () => {
    const s = await connectSsh({
      host: sshd.host,
      port: sshd.port,
      username: 'root',
      privateKey: sshd.clientKey,
    });
    s.close();
    expect((await failure(s.run('true'))).code).toBe('connection_lost');
  });
});
