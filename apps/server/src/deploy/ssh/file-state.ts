import { createHash } from 'node:crypto';
import { SshError } from './errors';
import type { TRunOptions, TRunResult } from './run';
import { assertRemotePath } from './write-file';

type TRun = (script: string, options?: TRunOptions) => Promise<TRunResult>;

export type TFileState = { exists: false } | { exists: true; mode: number; sha256: string };

// Marked lines, because a login shell's rc files may print to stdout before the script runs.
const STATE_SCRIPT = `if [ -f "$1" ]; then
  printf 'PORTICO_STATE=%s %s\\n' "$(stat -c %a -- "$1")" "$(sha256sum < "$1" | cut -d' ' -f1)"
else
  echo PORTICO_STATE=absent
fi`;

const READ_SCRIPT = `if [ -f "$1" ]; then printf 'PORTICO_FILE='; base64 -w0 < "$1"; echo; else echo PORTICO_ABSENT; fi`;

/** Mode and SHA-256 of a regular file, read as root; `exists: false` when there is none. */
export async function remoteFileState(run: TRun, path: string): Promise<TFileState> {
  assertRemotePath(path);
  const r = await run(STATE_SCRIPT, { sudo: true, args: [path] });
  const line = /^PORTICO_STATE=(.*)$/m.exec(r.stdout)?.[1];
  if (r.code !== 0 || line === undefined) {
    throw new SshError('protocol', `Could not inspect ${path}: ${r.stderr.trim()}`);
  }
  if (line === 'absent') return { exists: false };
  const [mode, sha256] = line.split(' ');
  return { exists: true, mode: Number.parseInt(mode ?? '', 8), sha256: sha256 ?? '' };
}

/** The content of a regular file, read as root; undefined when there is none. */
export async function readRemoteFile(run: TRun, path: string): Promise<Buffer | undefined> {
  assertRemotePath(path);
  const r = await run(READ_SCRIPT, { sudo: true, args: [path] });
  if (r.code === 0 && /^PORTICO_ABSENT$/m.test(r.stdout)) return undefined;
  const data = /^PORTICO_FILE=([A-Za-z0-9+/=]*)$/m.exec(r.stdout)?.[1];
  if (r.code !== 0 || data === undefined) {
    throw new SshError('protocol', `Could not read ${path}: ${r.stderr.trim()}`);
  }
  return Buffer.from(data, 'base64');
}

/** True when the file (as `remoteFileState` found it) already holds this content with this mode. */
export function sameFile(state: TFileState, content: string | Buffer, mode: number): boolean {
  if (!state.exists || state.mode !== mode) return false;
  return state.sha256 === createHash('sha256').update(content).digest('hex');
}
