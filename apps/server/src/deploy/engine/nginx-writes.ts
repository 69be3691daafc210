// The files an nginx change writes, and how each is put back: what the server had before (the
// `PORTICO_PREV` lines of APPLY_SCRIPT's answer) and the undo for each file it wrote or removed,
// and for the site's link.
import type { TRunResult } from '../ssh/run';
import { assertRemotePath, PUT_FILE } from '../ssh/write-file';
import { StepError, withOutput } from './failure';
import { msg } from './messages';
import { asRoot, firstMarked, prefixed, type TStepContext } from './step-context';

export interface TFileWrite {
  path: string;
  content: string;
  mode: number;
  /**
   * `private`: readable by root and nginx's group only (basic-auth users), its directory 0750;
   * its content travels on standard input, never as an argument. `remove`: the file is removed
   * (content unused). Plain by default.
   */
  way?: 'private' | 'remove';
}

export interface TSiteLink {
  target: string;
  link: string;
}

export type TUndo = () => Promise<void>;

type TBefore =
  | { exists: false }
  | { exists: true; link: string }
  | { exists: true; link?: undefined; mode: number; gid: number; content: Buffer };

/** Each file as it was before the script wrote it, from its `PORTICO_PREV` lines. */
function beforeOf(stdout: string): Map<number, TBefore> {
  const found = new Map<number, TBefore>();
  for (const line of prefixed(stdout, 'PORTICO_PREV=')) {
    const m =
      /^(\d+) (?:(absent)|link ([A-Za-z0-9+/=]+)|([0-7]{3,4}) (\d+) ([A-Za-z0-9+/=]*))$/.exec(line);
    if (!m) continue;
    found.set(
      Number(m[1]),
      m[2]
        ? { exists: false }
        : m[3]
          ? { exists: true, link: Buffer.from(m[3], 'base64').toString('utf8') }
          : {
              exists: true,
              mode: Number.parseInt(m[4]!, 8),
              gid: Number(m[5]),
              content: Buffer.from(m[6]!, 'base64'),
            },
    );
  }
  return found;
}

// Puts a private file back with its group (the bytes on standard input, as they came).
const RESTORE_PRIVATE = `${PUT_FILE}
IFS= read -r data || true
put_file "$1" "\${1%/*}/.\${1##*/}.portico-$$.tmp" "$2" "$data" "" "$3" >/dev/null`;

/** Puts back a file the script wrote over or removed, as it was. */
async function restore(c: TStepContext, file: TFileWrite, was: TBefore & { exists: true }) {
  if (was.link !== undefined) {
    // As the server printed it: put back only a plain path, never anything a shell would read.
    if (!/^[A-Za-z0-9._/@+-]{1,512}$/.test(was.link)) throw new Error(`${file.path}: odd link`);
    const r = await asRoot(c.session, 'ln -sfn -- "$1" "$2"', { args: [was.link, file.path] });
    if (r.code !== 0) throw new Error(`${file.path} could not be put back`);
  } else if (file.way === undefined) {
    await c.session.writeFile(file.path, was.content, was.mode);
  } else {
    const r = await asRoot(c.session, RESTORE_PRIVATE, {
      args: [file.path, was.mode.toString(8).padStart(4, '0'), String(was.gid)],
      stdin: `${was.content.toString('base64')}\n`,
    });
    if (r.code !== 0) throw new Error(`${file.path} could not be put back`);
  }
  c.log.info(msg('nginx.restored', { path: file.path }));
}

/** The files the script wrote, logged, each with how to put back what was there. */
export function writesWithUndo(
  c: TStepContext,
  step: string,
  files: TFileWrite[],
  r: TRunResult,
): { undo: TUndo[]; changed: boolean; failed?: TFileWrite } {
  const before = beforeOf(r.stdout);
  const outcome = new Map(
    prefixed(r.stdout, 'PORTICO_WRITE=').map((line) => {
      const [i, state] = line.split(' ');
      return [Number(i), state] as const;
    }),
  );
  if (firstMarked(r.stdout, 'PORTICO_PREPARE') === 'failed') {
    throw new StepError('internal', step, withOutput(msg('site.layoutFailed'), r.stderr));
  }
  const undo: TUndo[] = [];
  let changed = false;
  for (const [i, file] of files.entries()) {
    const state = outcome.get(i);
    if (state === 'same') continue;
    const was = before.get(i);
    if ((state !== 'wrote' && state !== 'removed') || !was) return { undo, changed, failed: file };
    changed = true;
    if (state === 'removed') {
      c.log.info(msg('nginx.removedUnused', { path: file.path }));
      // Not a regular file before (a dangling link): nothing to put back.
      if (was.exists) undo.push(() => restore(c, file, was));
      continue;
    }
    c.log.info(msg(was.exists ? 'nginx.updated' : 'nginx.wrote', { path: file.path }));
    undo.push(undoOf(c, file, was));
  }
  return { undo, changed };
}

/** Puts back what was at the file's path: its previous content, or nothing. */
function undoOf(c: TStepContext, file: TFileWrite, was: TBefore): TUndo {
  if (was.exists) return () => restore(c, file, was);
  return async () => {
    await asRoot(c.session, 'rm -f -- "$1"', { args: [file.path] });
    c.log.info(msg('nginx.removedNew', { path: file.path }));
  };
}

/**
 * The file a stopped script was at when it stopped (its state before printed, its outcome not):
 * it may or may not have been renamed in, so it is put back either way.
 */
export function undoOfUnfinished(
  c: TStepContext,
  files: TFileWrite[],
  stdout: string,
): { file: TFileWrite; undo: TUndo } | undefined {
  const before = beforeOf(stdout);
  const reported = new Set(prefixed(stdout, 'PORTICO_WRITE=').map((l) => Number(l.split(' ')[0])));
  for (const [i, file] of files.entries()) {
    const was = before.get(i);
    if (was && !reported.has(i)) return { file, undo: undoOf(c, file, was) };
  }
  return undefined;
}

/** What `LINK_SCRIPT` printed (within `APPLY_SCRIPT`): logged, and how to undo it. */
export function linkWithUndo(
  c: TStepContext,
  link: TSiteLink,
  step: string,
  r: TRunResult,
): TUndo | undefined {
  const state = firstMarked(r.stdout, 'PORTICO_LINK');
  const code = firstMarked(r.stdout, 'PORTICO_LINK_CODE');
  if (code !== '0' || !state) {
    throw new StepError(
      'internal',
      step,
      withOutput(msg('nginx.linkFailed', { link: link.link }), r.stderr),
    );
  }
  if (state === 'conflict') {
    throw new StepError(
      'nginx_config_invalid',
      step,
      msg('nginx.linkConflict', { link: link.link }),
    );
  }
  if (state === 'same') return undefined;
  c.log.info(msg('nginx.enabled', { link: link.link, target: link.target }));
  const old = firstMarked(r.stdout, 'PORTICO_LINK_OLD');
  if (old) assertRemotePath(old);
  return async () => {
    if (old) await asRoot(c.session, 'ln -sfn -- "$1" "$2"', { args: [old, link.link] });
    else await asRoot(c.session, 'rm -f -- "$1"', { args: [link.link] });
  };
}
