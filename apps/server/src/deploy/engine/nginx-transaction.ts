import { ACME_WEBROOT } from '../nginx-site';
import { sameFile } from '../ssh/file-state';
import type { TRunResult } from '../ssh/run';
import { assertRemotePath } from '../ssh/write-file';
import { StepError, withOutput } from './failure';
import { msg } from './messages';
import {
  FUNCTIONS,
  logReloading,
  parseNginxTest,
  RELOAD_BODY,
  reloadNginx,
  reportReload,
  testNginx,
} from './nginx-control';
import { asRoot, firstMarked, outputOf, prefixed, type TStepContext } from './step-context';

export interface TFileWrite {
  path: string;
  content: string;
  mode: number;
}

export interface TSiteLink {
  target: string;
  link: string;
}

type TUndo = () => Promise<void>;

const LINK_SCRIPT = `t=$1 l=$2
if [ -L "$l" ]; then
  old=$(readlink -- "$l")
  if [ "$old" = "$t" ]; then echo PORTICO_LINK=same; exit 0; fi
  ln -sfn -- "$t" "$l" || exit 1
  printf 'PORTICO_LINK_OLD=%s\\n' "$old"
  echo PORTICO_LINK=replaced
elif [ -e "$l" ]; then
  echo PORTICO_LINK=conflict
else
  ln -s -- "$t" "$l" || exit 1
  echo PORTICO_LINK=created
fi`;

// One round trip before writing: the directories a site needs, and each file's mode and
// content as it is now (what a rollback puts back). Arguments: the files' paths.
const PREPARE_SCRIPT = `umask 022
mkdir -p ${ACME_WEBROOT} /etc/nginx/conf.d || exit 1
i=0
for f in "$@"; do
  if [ -f "$f" ]; then
    printf 'PORTICO_PREV=%s %s ' "$i" "$(stat -c %a -- "$f")"; base64 -w0 < "$f"; echo
  else
    echo "PORTICO_PREV=$i absent"
  fi
  i=$((i + 1))
done`;

type TBefore = { exists: false } | { exists: true; mode: number; content: Buffer };

async function readBefore(c: TStepContext, step: string, files: TFileWrite[]): Promise<TBefore[]> {
  for (const f of files) assertRemotePath(f.path);
  const r = await asRoot(c.session, PREPARE_SCRIPT, { args: files.map((f) => f.path) });
  const found = new Map<number, TBefore>();
  for (const line of prefixed(r.stdout, 'PORTICO_PREV=')) {
    const m = /^(\d+) (?:(absent)|([0-7]{3,4}) ([A-Za-z0-9+/=]*))$/.exec(line);
    if (!m) continue;
    found.set(
      Number(m[1]),
      m[2]
        ? { exists: false }
        : { exists: true, mode: Number.parseInt(m[3]!, 8), content: Buffer.from(m[4]!, 'base64') },
    );
  }
  const before = files.map((_, i) => found.get(i));
  if (r.code !== 0 || before.some((b) => b === undefined)) {
    throw new StepError('internal', step, withOutput(msg('site.layoutFailed'), r.stderr));
  }
  return before as TBefore[];
}

async function writeWithUndo(
  c: TStepContext,
  file: TFileWrite,
  before: TBefore,
): Promise<TUndo | undefined> {
  if (sameFile(before, file.content, file.mode)) return undefined;
  await c.session.writeFile(file.path, file.content, file.mode);
  c.log.info(msg(before.exists ? 'nginx.updated' : 'nginx.wrote', { path: file.path }));
  if (before.exists) {
    const { content, mode } = before;
    return async () => {
      await c.session.writeFile(file.path, content, mode);
      c.log.info(msg('nginx.restored', { path: file.path }));
    };
  }
  return async () => {
    await asRoot(c.session, 'rm -f -- "$1"', { args: [file.path] });
    c.log.info(msg('nginx.removedNew', { path: file.path }));
  };
}

/** What `LINK_SCRIPT` printed (within `APPLY_SCRIPT`): logged, and how to undo it. */
function linkWithUndo(
  c: TStepContext,
  link: TSiteLink,
  step: string,
  r: { code: number; stdout: string; stderr: string },
): TUndo | undefined {
  const state = firstMarked(r.stdout, 'PORTICO_LINK');
  if (r.code !== 0 || !state) {
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

// After the files are written, one round trip: the site enabled ($1 target, $2 link; both
// empty for the conf.d layout), \`nginx -t\`, and only if it passes the reload with its wait
// ($3, below, may leave out a reload that would change nothing).
// Each part's output and exit code are marked, so every failure reads as its own command's.
const APPLY_SCRIPT = `${FUNCTIONS}
linked=""
if [ -n "$2" ]; then
  linked=$( (
${LINK_SCRIPT}
  ) ); rc=$?
  printf '%s\\n' "$linked"
  echo "PORTICO_LINK_CODE=$rc"
  [ "$rc" -eq 0 ] || exit 0
  case "$linked" in *PORTICO_LINK=conflict*) exit 0 ;; esac
fi
out=$(nginx -t 2>&1); rc=$?
printf '%s\\n' "$out" | sed 's/^/PORTICO_TEST:/'
echo "PORTICO_TEST:PORTICO_CODE=$rc"
[ "$rc" -eq 0 ] || exit 0
# $3 = if-linked: no file was written and nginx already runs them; only a new link needs a reload.
if [ "$3" = if-linked ]; then
  case "$linked" in *PORTICO_LINK=created*|*PORTICO_LINK=replaced*) ;; *) echo PORTICO_RELOAD:PORTICO_SKIP=live; exit 0 ;; esac
fi
{ (
${RELOAD_BODY}
); echo "PORTICO_CODE=$?"; } 2>&1 | sed 's/^/PORTICO_RELOAD:/'
exit 0`;

/** A part of `APPLY_SCRIPT`'s answer as if its command had run alone; undefined if it did not. */
function part(stdout: string, prefix: string): TRunResult | undefined {
  const lines = prefixed(stdout, prefix);
  const code = firstMarked(lines.join('\n'), 'PORTICO_CODE');
  if (code === undefined || !/^\d+$/.test(code)) return undefined;
  const out = lines.filter((l) => !l.startsWith('PORTICO_CODE=')).join('\n');
  return { code: Number(code), stdout: out, stderr: '' };
}

/**
 * Writes nginx files (only those that differ), enables the site, and lets `nginx -t` decide:
 * on failure every changed file is put back as it was and nothing is reloaded, so the sites
 * already on the server keep running. Then reloads nginx and waits until the change is live.
 */
export async function applyNginxFiles(
  c: TStepContext,
  step: string,
  files: TFileWrite[],
  link?: TSiteLink,
  /** nginx already runs these files as they are on disk: reload only if something changes. */
  live = false,
): Promise<{ changed: boolean }> {
  const undo: TUndo[] = [];
  const rollback = async () => {
    for (const u of undo.reverse()) await u();
  };
  const before = await readBefore(c, step, files);
  let r: TRunResult;
  try {
    for (const [i, file] of files.entries()) {
      const u = await writeWithUndo(c, file, before[i]!);
      if (u) undo.push(u);
    }
    const reload = live && undo.length === 0 ? 'if-linked' : 'always';
    r = await asRoot(c.session, APPLY_SCRIPT, {
      args: [...(link ? [link.target, link.link] : ['', '']), reload],
    });
    if (link) {
      const code = firstMarked(r.stdout, 'PORTICO_LINK_CODE');
      const linked = { code: code === '0' ? 0 : 1, stdout: r.stdout, stderr: r.stderr };
      const u = linkWithUndo(c, link, step, linked);
      if (u) undo.push(u);
    }
  } catch (error) {
    await rollback().catch(() => undefined);
    throw error;
  }
  const changed = undo.length > 0;
  if (!changed) c.log.info(msg('nginx.unchanged'));

  c.log.info(msg('nginx.testing'));
  const tested = part(r.stdout, 'PORTICO_TEST:');
  const test = tested
    ? parseNginxTest(tested.code, tested.stdout)
    : parseNginxTest(r.code || 1, outputOf(r));
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
  for (const warning of test.warnings) c.log.warning(`nginx -t: ${warning}`);
  c.log.info(msg('nginx.testPassed'));

  if (firstMarked(prefixed(r.stdout, 'PORTICO_RELOAD:').join('\n'), 'PORTICO_SKIP') === 'live') {
    c.log.info(msg('nginx.alreadyLive'));
    return { changed };
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
  return { changed };
}
