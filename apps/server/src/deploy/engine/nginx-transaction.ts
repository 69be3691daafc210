import { CommandTimeoutError } from '../ssh';
import type { TRunResult } from '../ssh/run';
import { assertRemotePath, inlineWritable } from '../ssh/write-file';
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
import { putBackAfterStall, stalledPart } from './nginx-stall';
import {
  linkWithUndo,
  type TFileWrite,
  type TSiteLink,
  type TUndo,
  writesWithUndo,
} from './nginx-writes';
import type { TSiteLook } from './site-record';
import { asRoot, firstMarked, outputOf, prefixed, type TStepContext } from './step-context';

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
  let r: TRunResult;
  try {
    r = await asRoot(c.session, APPLY_SCRIPT, {
      args: applyArgs(files, link, live, dump, look),
      ...(stdin ? { stdin } : {}),
    });
  } catch (error) {
    if (!(error instanceof CommandTimeoutError)) throw error;
    const stalled = stalledPart(error.stdout, files.length, link !== undefined);
    if (stalled !== 'look') {
      throw await putBackAfterStall(c, step, { files, ...(link ? { link } : {}) }, stalled, error);
    }
    // Tested and reloaded; only the look at the site was cut short (the record looks again).
    r = { code: 0, stdout: error.stdout, stderr: '' };
  }
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
