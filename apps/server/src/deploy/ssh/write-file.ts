import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import type { Client, SFTPWrapper } from 'ssh2';
import { SshError } from './errors';
import type { TIdentity, TRunOptions, TRunResult } from './run';

const SEGMENT = /^[A-Za-z0-9._@+-]+$/;
const CHUNK = 32 * 1024;

/** Absolute, no `.`/`..`/empty segments, conservative characters: it also ends up in argv. */
export function assertRemotePath(path: string): void {
  const segments = path.split('/');
  const ok =
    path.startsWith('/') &&
    path.length <= 4096 &&
    segments.length > 1 &&
    segments.slice(1).every((s) => SEGMENT.test(s) && s !== '.' && s !== '..');
  if (!ok) throw new SshError('protocol', 'A remote file path must be absolute and plain.');
}

function assertMode(mode: number): void {
  if (!Number.isInteger(mode) || mode < 0 || mode > 0o7777) {
    throw new SshError('protocol', 'A file mode must be an integer from 0 to 0o7777.');
  }
}

/** A dot-name beside the target: nginx's `include *` globs skip dot-files, and rename stays in one filesystem. */
function tempPathFor(path: string): string {
  return `${posix.dirname(path)}/.${posix.basename(path)}.portico-${randomBytes(6).toString('hex')}.tmp`;
}

function call<T>(fn: (cb: (err: Error | null | undefined, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    fn((err, value) => (err ? reject(err) : resolve(value)));
  });
}

function openSftp(client: Client): Promise<SFTPWrapper> {
  return call<SFTPWrapper>((cb) => client.sftp(cb));
}

async function sftpWrite(sftp: SFTPWrapper, path: string, data: Buffer, mode: number) {
  const handle = await call<Buffer>((cb) => sftp.open(path, 'wx', { mode }, cb));
  try {
    for (let at = 0; at < data.length; at += CHUNK) {
      const length = Math.min(CHUNK, data.length - at);
      await call<void>((cb) => sftp.write(handle, data, at, length, at, (e) => cb(e, undefined)));
    }
    // The server's umask applies to open(); set the mode explicitly.
    await call<void>((cb) => sftp.fchmod(handle, mode, (e) => cb(e, undefined)));
    await call<void>((cb) => sftp.ext_openssh_fsync(handle, (e) => cb(e, undefined))).catch(
      () => undefined, // fsync@openssh.com missing: the rename is still atomic, only less durable.
    );
  } finally {
    await call<void>((cb) => sftp.close(handle, (e) => cb(e, undefined))).catch(() => undefined);
  }
}

/**
 * Runs as root: copies the staged file beside the target with its mode, renames it in, and
 * removes the staging directory (one round trip less than a separate cleanup).
 */
const INSTALL_SCRIPT = `set -eu
src=$1 dst=$2 tmp=$3 mode=$4 stage=$5
trap 'rm -f -- "$tmp"; rm -rf -- "$stage"' EXIT
install -m "$mode" -o root -g root -- "$src" "$tmp"
sync "$tmp" 2>/dev/null || true
mv -fT -- "$tmp" "$dst"`;

/**
 * `put_file DST TMP MODE BASE64 [sync] [GID]`, as root: the bytes are written to TMP (beside DST)
 * and renamed over DST with MODE, owned by root and group GID (root's without one); with `sync`,
 * a DST that already holds these bytes with this mode (and this group, when given) is left
 * alone. Prints `same` or `wrote`; on failure returns non-zero with TMP removed. `mv -T`: a
 * directory standing at DST is refused, never written into.
 */
export const PUT_FILE = `put_file() {
  if ! (umask 077 && printf '%s' "$4" | base64 -d > "$2"); then rm -f -- "$2"; return 1; fi
  if [ "\${5:-}" = sync ] && [ -f "$1" ] && [ "$(stat -c %a -- "$1")" = "$(printf '%o' "0$3")" ] \\
    && { [ -z "\${6:-}" ] || [ "$(stat -c %g -- "$1")" = "$6" ]; } \\
    && [ "$(sha256sum < "$2")" = "$(sha256sum < "$1")" ]; then
    rm -f -- "$2"; echo same; return 0
  fi
  if chown 0:"\${6:-0}" -- "$2" && chmod "$3" -- "$2" && { sync "$2" 2>/dev/null || true; } \\
    && mv -fT -- "$2" "$1"; then
    echo wrote
  else
    rm -f -- "$2"; return 1
  fi
}`;

/**
 * Content every local user may read once written (mode o+r, an nginx site, a cron entry) and of
 * this size travels base64 as an argument of one root script: one exec instead of an SFTP
 * session's seven round trips (and, through sudo, of three steps). Anything else, which may be
 * secret (a custom script is 0700), goes through SFTP, never onto a command line.
 */
const INLINE_MAX = 48 * 1024;
const INLINE_SCRIPT = `${PUT_FILE}
state=$(put_file "$1" "$2" "$3" "$4" "\${5:-}") || exit 1
echo "PORTICO_SYNC=$state"`;

/** Whether the content may travel as an argument of `INLINE_SCRIPT` (see `INLINE_MAX`). */
export function inlineWritable(data: Buffer, mode: number): boolean {
  return (mode & 0o004) !== 0 && data.length <= INLINE_MAX;
}

type TRun = (script: string, options?: TRunOptions) => Promise<TRunResult>;

/**
 * One root script writes the file (`always`), or only when its bytes or mode differ (`sync`).
 * Resolves true when it wrote.
 */
export async function writeInline(
  session: { run: TRun },
  path: string,
  data: Buffer,
  mode: number,
  when: 'always' | 'sync',
): Promise<boolean> {
  assertRemotePath(path);
  assertMode(mode);
  const octal = mode.toString(8).padStart(4, '0');
  const r = await session.run(INLINE_SCRIPT, {
    sudo: true,
    args: [path, tempPathFor(path), octal, data.toString('base64'), when],
  });
  const outcome = /^PORTICO_SYNC=(same|wrote)$/m.exec(r.stdout)?.[1];
  if (r.code !== 0 || !outcome) {
    throw new SshError('protocol', `Could not write ${path}: ${r.stderr.trim()}`);
  }
  return outcome === 'wrote';
}

export async function writeRemoteFile(
  client: Client,
  identity: TIdentity,
  session: { run: TRun },
  path: string,
  content: string | Buffer,
  mode: number,
): Promise<void> {
  assertRemotePath(path);
  assertMode(mode);
  const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const temp = tempPathFor(path);

  if (inlineWritable(data, mode)) {
    await writeInline(session, path, data, mode, 'always');
    return;
  }

  if (identity.isRoot) {
    const sftp = await openSftp(client);
    try {
      await sftpWrite(sftp, temp, data, mode);
      // posix-rename@openssh.com replaces the target atomically; plain SFTP rename refuses to.
      await call<void>((cb) => sftp.ext_openssh_rename(temp, path, (e) => cb(e, undefined)));
    } catch (error) {
      await call<void>((cb) => sftp.unlink(temp, (e) => cb(e, undefined))).catch(() => undefined);
      throw new SshError('protocol', `Could not write ${path}: ${(error as Error).message}`, {
        cause: error,
      });
    } finally {
      sftp.end();
    }
    return;
  }

  // Not root: stage the content as the user in a private directory, then install it via sudo.
  // A marked line, because a login shell's rc files may print to stdout before the script runs.
  const made = await session.run(
    'umask 077; d=$(mktemp -d -t portico.XXXXXXXXXX) && printf "PORTICO_TMP=%s\\n" "$d"',
  );
  const stageDir = /^PORTICO_TMP=(.+)$/m.exec(made.stdout)?.[1] ?? '';
  if (made.code !== 0 || !stageDir) {
    throw new SshError('protocol', `Could not create a temporary directory: ${made.stderr.trim()}`);
  }
  assertRemotePath(stageDir);
  const staged = `${stageDir}/content`;
  let cleaned = false;
  try {
    const sftp = await openSftp(client);
    try {
      await sftpWrite(sftp, staged, data, 0o600);
    } finally {
      sftp.end();
    }
    const installed = await session.run(INSTALL_SCRIPT, {
      sudo: true,
      args: [staged, path, temp, mode.toString(8).padStart(4, '0'), stageDir],
    });
    cleaned = true;
    if (installed.code !== 0) {
      throw new SshError('protocol', `Could not write ${path}: ${installed.stderr.trim()}`);
    }
  } finally {
    if (!cleaned) {
      await session.run('rm -rf -- "$1"', { args: [stageDir] }).catch(() => undefined);
    }
  }
}
