import { sameFile } from '../ssh/file-state';
import { StepError, withOutput } from './failure';
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
  c.log.info(`${before.exists ? 'Updated' : 'Wrote'} ${file.path}.`);
  if (previous !== undefined && before.exists) {
    return async () => {
      await c.session.writeFile(file.path, previous, before.mode);
      c.log.info(`Restored the previous ${file.path}.`);
    };
  }
  return async () => {
    await asRoot(c.session, 'rm -f -- "$1"', { args: [file.path] });
    c.log.info(`Removed the new ${file.path}.`);
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
      withOutput(`Could not enable the site (${link.link}):`, r.stderr),
    );
  }
  if (state === 'conflict') {
    throw new StepError(
      'nginx_config_invalid',
      step,
      `${link.link} exists and is not a link made by Portico; it was left alone. Move it away, then deploy again.`,
    );
  }
  if (state === 'same') return undefined;
  c.log.info(`Enabled the site: ${link.link} -> ${link.target}.`);
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
  if (!changed) c.log.info('The nginx files already match; nothing was rewritten.');

  c.log.info('Testing the nginx configuration (nginx -t).');
  const test = await testNginx(c);
  if (!test.ok) {
    if (!changed) {
      throw new StepError(
        'nginx_config_invalid',
        step,
        withOutput(
          'The nginx configuration on the server is already invalid, before any change by Portico, so nginx cannot be reloaded. Fix the file nginx names below, then deploy again. nginx -t said:',
          test.output,
        ),
      );
    }
    await rollback();
    const again = await testNginx(c);
    const after = again.ok
      ? 'The previous files are back and nginx -t passes again; nothing was reloaded, so the sites already on the server keep running.'
      : 'The previous files are back, but nginx -t still fails, so the cause is in another file on the server; nothing was reloaded.';
    throw new StepError(
      'nginx_config_invalid',
      step,
      withOutput(`nginx rejected the new configuration. ${after} nginx -t said:`, test.output),
    );
  }
  for (const warning of test.warnings) c.log.warning(`nginx -t: ${warning}`);
  c.log.info('nginx -t passed.');

  try {
    await reloadNginx(c, step);
  } catch (error) {
    if (changed) {
      c.log.warning('Putting the previous nginx files back because the reload failed.');
      await rollback();
      await reloadNginx(c, step).catch(() => undefined);
    }
    throw error;
  }
  return { changed };
}
