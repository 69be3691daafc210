import type { TRunResult } from '../ssh/run';
import { assertRemotePath, inlineWritable, PUT_FILE } from '../ssh/write-file';
import { StepError, withOutput } from './failure';
import { msg } from './messages';
import { APPLY_SCRIPT } from './nginx-apply-script';
import {
  logReloading,
  parseNginxTest,
  reloadNginx,
  reportReload,
  testNginx,
} from './nginx-control';
import type { TSiteLook } from './site-record';
import { asRoot, firstMarked, outputOf, prefixed, type TStepContext } from './step-context';

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

type TUndo = () => Promise<void>;

/** The answer without the files' previous content (a private file's among them): never quoted. */
function withoutPrevious(r: TRunResult): TRunResult {
  const stdout = r.stdout
    .split('\n')
    .filter((l) => !l.startsWith('PORTICO_PREV='))
    .join('\n');
  return { ...r, stdout };
}

/** A part of `APPLY_SCRIPT`'s answer as if its command had run alone; undefined if it did not. */
function part(stdout: string, prefix: string): TRunResult | undefined {
  const lines = prefixed(stdout, prefix);
  const code = firstMarked(lines.join('\n'), 'PORTICO_CODE');
  if (code === undefined || !/^\d+$/.test(code)) return undefined;
  const out = lines.filter((l) => !l.startsWith('PORTICO_CODE=')).join('\n');
  return { code: Number(code), stdout: out, stderr: '' };
}

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
function writesWithUndo(
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
    undo.push(
      was.exists
        ? () => restore(c, file, was)
        : async () => {
            await asRoot(c.session, 'rm -f -- "$1"', { args: [file.path] });
            c.log.info(msg('nginx.removedNew', { path: file.path }));
          },
    );
  }
  return { undo, changed };
}

/** What `LINK_SCRIPT` printed (within `APPLY_SCRIPT`): logged, and how to undo it. */
function linkWithUndo(
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

function applyArgs(
  files: TFileWrite[],
  link: TSiteLink | undefined,
  live: boolean,
  dump: boolean,
  look: TSiteLook | undefined,
): string[] {
  const perFile = files.flatMap((f) => {
    const data = Buffer.from(f.content, 'utf8');
    assertRemotePath(f.path);
    const mode = f.mode.toString(8).padStart(4, '0');
    if (f.way === 'remove') return [f.path, mode, 'remove', ''];
    if (f.way === 'private') return [f.path, mode, 'private', '-'];
    // Site files are public configuration and small: they travel as arguments.
    if (!inlineWritable(data, f.mode)) throw new Error(`${f.path} cannot travel inline`);
    return [f.path, mode, 'plain', data.toString('base64')];
  });
  return [
    ...(link ? [link.target, link.link] : ['', '']),
    live ? 'live' : 'always',
    dump ? 'dump' : 'test',
    String(files.length),
    ...perFile,
    ...(look?.args ?? []),
  ];
}

/**
 * Writes nginx files (only those that differ), enables the site, and lets `nginx -t` decide:
 * on failure every changed file is put back as it was and nothing is reloaded, so the sites
 * already on the server keep running. Then reloads nginx and waits until the change is live.
 * One round trip on the way that succeeds; `look` takes the site record's look at its end.
 * The answer's `rollback` puts every file back as it was (the caller reloads): a conversion
 * undoes a change nginx accepted but the site's answer did not survive. With `dump`, the test is
 * `nginx -T` and `answer` holds its dump (`APPLY_SCRIPT`).
 */
export async function applyNginxFiles(
  c: TStepContext,
  step: string,
  files: TFileWrite[],
  options: {
    link?: TSiteLink;
    /** nginx already runs these files as they are on disk: reload only if something changes. */
    live?: boolean;
    look?: TSiteLook;
    dump?: boolean;
  } = {},
): Promise<{ changed: boolean; rollback: () => Promise<void>; answer: string }> {
  const { link, live = false, look, dump = false } = options;
  const undo: TUndo[] = [];
  const rollback = async () => {
    for (const u of undo.reverse()) await u();
  };
  // Private files' content, one base64 line each in their order: never on a command line.
  const stdin = files
    .filter((f) => f.way === 'private')
    .map((f) => `${Buffer.from(f.content, 'utf8').toString('base64')}\n`)
    .join('');
  const r = await asRoot(c.session, APPLY_SCRIPT, {
    args: applyArgs(files, link, live, dump, look),
    ...(stdin ? { stdin } : {}),
  });
  let changed = false;
  try {
    const written = writesWithUndo(c, step, files, r);
    undo.push(...written.undo);
    changed = written.changed;
    if (written.failed) {
      throw new StepError(
        'internal',
        step,
        withOutput(msg('nginx.writeFailed', { path: written.failed.path }), r.stderr),
      );
    }
    if (link) {
      const u = linkWithUndo(c, link, step, r);
      if (u) {
        undo.push(u);
        changed = true;
      }
    }
  } catch (error) {
    await rollback().catch(() => undefined);
    throw error;
  }
  if (!changed) c.log.info(msg('nginx.unchanged'));

  c.log.info(msg(dump ? 'nginx.testingDump' : 'nginx.testing'));
  const tested = part(r.stdout, 'PORTICO_TEST:');
  const test = tested
    ? parseNginxTest(tested.code, tested.stdout)
    : parseNginxTest(r.code || 1, outputOf(withoutPrevious(r)));
  if (!test.ok) {
    if (!changed) {
      throw new StepError(
        'nginx_config_invalid',
        step,
        withOutput(msg('nginx.invalidBefore'), test.output),
      );
    }
    await rollback();
    const again = await testNginx(c);
    const after = msg(again.ok ? 'nginx.rolledBackOk' : 'nginx.rolledBackStillFails');
    throw new StepError(
      'nginx_config_invalid',
      step,
      withOutput(msg('nginx.rejected', { after }), test.output),
    );
  }
  for (const warning of test.warnings) c.log.warning(`nginx -${dump ? 'T' : 't'}: ${warning}`);
  c.log.info(msg(dump ? 'nginx.dumpTestPassed' : 'nginx.testPassed'));

  if (firstMarked(prefixed(r.stdout, 'PORTICO_RELOAD:').join('\n'), 'PORTICO_SKIP') === 'live') {
    c.log.info(msg('nginx.alreadyLive'));
    look?.took(r.stdout);
    return { changed, rollback, answer: r.stdout };
  }
  try {
    logReloading(c);
    const reloaded = part(r.stdout, 'PORTICO_RELOAD:');
    reportReload(c, step, reloaded ?? { ...r, code: r.code || 1 });
  } catch (error) {
    if (changed) {
      c.log.warning(msg('nginx.putBack'));
      await rollback();
      await reloadNginx(c, step).catch(() => undefined);
    }
    throw error;
  }
  look?.took(r.stdout);
  return { changed, rollback, answer: r.stdout };
}
