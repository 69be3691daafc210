// An nginx change whose one round trip (APPLY_SCRIPT) was stopped at the command's time limit:
// the log says which part the server did not finish, and what the script had written by then is
// put back, since nginx's test never vouched for it.
import type { TText } from '@portico/shared/i18n/text';
import type { CommandTimeoutError } from '../ssh';
import { StepError } from './failure';
import { msg } from './messages';
import { reloadNginx } from './nginx-control';
import {
  linkWithUndo,
  type TFileWrite,
  type TSiteLink,
  type TUndo,
  undoOfUnfinished,
  writesWithUndo,
} from './nginx-writes';
import { firstMarked, marked, prefixed, type TStepContext } from './step-context';

/**
 * How far the script got, from the marked lines it printed before it was stopped: its writes
 * (and the site's link), `nginx -t`, the reload and its wait, then the look at the site (`look`:
 * the change is tested and live).
 */
export type TStalledPart = 'write' | 'test' | 'reload' | 'look';

/**
 * What a stopped script printed, up to its last whole line: a line cut by the stop (a file's
 * previous bytes half printed, `PORTICO_WRITE=0 wro`) is not read as if it were whole.
 */
export function printedWhole(stdout: string): string {
  return stdout.slice(0, stdout.lastIndexOf('\n') + 1);
}

export function stalledPart(printed: string, fileCount: number, linked: boolean): TStalledPart {
  const stdout = printedWhole(printed);
  const reload = prefixed(stdout, 'PORTICO_RELOAD:').join('\n');
  if (firstMarked(reload, 'PORTICO_CODE') !== undefined) return 'look';
  if (firstMarked(reload, 'PORTICO_SKIP') !== undefined) return 'look';
  const test = prefixed(stdout, 'PORTICO_TEST:').join('\n');
  if (firstMarked(test, 'PORTICO_CODE') !== undefined) return 'reload';
  const written = new Set(prefixed(stdout, 'PORTICO_WRITE=').map((l) => l.split(' ')[0]));
  const linkDone = !linked || firstMarked(stdout, 'PORTICO_LINK_CODE') !== undefined;
  return written.size >= fileCount && linkDone ? 'test' : 'write';
}

/** bash's EPOCHREALTIME as printed (its decimal mark is the locale's); NaN when it was empty. */
function clockOf(printed: string | undefined): number {
  return Number((printed ?? '').trim().replace(',', '.') || Number.NaN);
}

/**
 * How far a reload the limit stopped had got, from the times the script printed
 * (`PORTICO_BEGAN`, and the reload's `PORTICO_RELOAD_AT` lines): not yet signalled, signalled
 * with no new worker yet, or new workers with old ones still serving. Undefined when the server's
 * bash keeps no such clock (before bash 5).
 */
export function reloadProgress(printed: string): TText | undefined {
  const stdout = printedWhole(printed);
  const began = clockOf(firstMarked(stdout, 'PORTICO_BEGAN'));
  if (Number.isNaN(began)) return undefined;
  const at = new Map(
    marked(prefixed(stdout, 'PORTICO_RELOAD:').join('\n'), 'PORTICO_RELOAD_AT').map((line) => {
      const [event = '', time] = line.split(' ');
      return [event, clockOf(time)] as const;
    }),
  );
  const since = (event: string) => {
    const time = at.get(event);
    return time === undefined || Number.isNaN(time)
      ? undefined
      : { number: Math.max(0, time - began), digits: 1 };
  };
  const signalled = since('signalled');
  if (!signalled) return msg('nginx.stalledReloadUnsent');
  const fresh = since('fresh');
  if (!fresh) return msg('nginx.stalledReloadNoWorkers', { signalled });
  return msg('nginx.stalledReloadOldWorkers', { signalled, fresh });
}

const PART_TEXT = {
  write: 'nginx.stalledWrite',
  test: 'nginx.stalledTest',
  reload: 'nginx.stalledReload',
} as const;

/**
 * Puts back every file (and the link) the stopped script shows it wrote, the one it was writing
 * included, and reloads when the reload may have taken them; returns the step's failure.
 */
export async function putBackAfterStall(
  c: TStepContext,
  step: string,
  change: { files: TFileWrite[]; link?: TSiteLink },
  stalled: Exclude<TStalledPart, 'look'>,
  error: CommandTimeoutError,
): Promise<StepError> {
  const { files, link } = change;
  const stdout = printedWhole(error.stdout);
  const answer = { code: 1, stdout, stderr: '' };
  const undo: TUndo[] = [];
  const touched: string[] = [];
  try {
    undo.push(...writesWithUndo(c, step, files, answer).undo);
    const unfinished = undoOfUnfinished(c, files, stdout);
    if (unfinished) undo.push(unfinished.undo);
    if (link && firstMarked(stdout, 'PORTICO_LINK_CODE') === '0') {
      const u = linkWithUndo(c, link, step, answer);
      if (u) undo.push(u);
    }
  } catch {
    // A partial answer that reads as a failed write or a link conflict: nothing more to put back.
  }
  for (const f of files) touched.push(f.path);
  if (link) touched.push(link.link);
  // What the server had done of the reload when the limit stopped it, before it is undone.
  const progress = stalled === 'reload' ? reloadProgress(stdout) : undefined;
  if (progress) c.log.warning(progress);
  if (undo.length > 0) {
    c.log.warning(msg('nginx.putBackAfterStall'));
    let putBack = false;
    try {
      for (const u of undo.reverse()) await u();
      putBack = true;
      if (stalled === 'reload') await reloadNginx(c, step);
    } catch {
      // The files back but their reload unconfirmed is not the same as files left changed.
      c.log.warning(
        putBack
          ? msg('nginx.putBackNotReloaded')
          : msg('nginx.putBackFailed', { files: touched.join(', ') }),
      );
    }
  }
  const said = msg('nginx.stalled', {
    part: msg(PART_TEXT[stalled]),
    seconds: error.limitMs / 1000,
  });
  const text: TText = { join: [said, msg('failure.hintTimeout')], sep: ' ' };
  return new StepError('timeout', step, text);
}
