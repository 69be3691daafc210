import { sameFile } from '../ssh/file-state';
import { StepError, withOutput } from './failure';
import { msg } from './messages';
import { reloadNginx, testNginx } from './nginx-control';
import { asRoot, firstMarked, type TStepContext } from './step-context';

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

async function writeWithUndo(c: TStepContext, file: TFileWrite): Promise<TUndo | undefined> {
  const before = await c.session.fileState(file.path);
  if (sameFile(before, file.content, file.mode)) return undefined;
  const previous = before.exists ? await c.session.readFile(file.path) : undefined;
  await c.session.writeFile(file.path, file.content, file.mode);
  c.log.info(msg(before.exists ? 'nginx.updated' : 'nginx.wrote', { path: file.path }));
  if (previous !== undefined && before.exists) {
    return async () => {
      await c.session.writeFile(file.path, previous, before.mode);
      c.log.info(msg('nginx.restored', { path: file.path }));
    };
  }
  return async () => {
    await asRoot(c.session, 'rm -f -- "$1"', { args: [file.path] });
    c.log.info(msg('nginx.removedNew', { path: file.path }));
  };
}

async function linkWithUndo(
  c: TStepContext,
  link: TSiteLink,
  step: string,
): Promise<TUndo | undefined> {
  const r = await asRoot(c.session, LINK_SCRIPT, { args: [link.target, link.link] });
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
  return async () => {
    if (old) await asRoot(c.session, 'ln -sfn -- "$1" "$2"', { args: [old, link.link] });
    else await asRoot(c.session, 'rm -f -- "$1"', { args: [link.link] });
  };
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
): Promise<{ changed: boolean }> {
  const undo: TUndo[] = [];
  const rollback = async () => {
    for (const u of undo.reverse()) await u();
  };
  try {
    for (const file of files) {
      const u = await writeWithUndo(c, file);
      if (u) undo.push(u);
    }
    if (link) {
      const u = await linkWithUndo(c, link, step);
      if (u) undo.push(u);
    }
  } catch (error) {
    await rollback().catch(() => undefined);
    throw error;
  }
  const changed = undo.length > 0;
  if (!changed) c.log.info(msg('nginx.unchanged'));

  c.log.info(msg('nginx.testing'));
  const test = await testNginx(c);
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

  try {
    await reloadNginx(c, step);
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
