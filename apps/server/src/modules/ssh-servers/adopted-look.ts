import { SCANNED_PATH } from '@portico/shared/ssh-servers/site-scan';
import type { TSshSession } from '../../deploy/ssh';
import type { TSshServersRepository } from './ssh-servers.repository';

/**
 * "Check now" looks at the files of the sites adopted on the server (docs/PRODUCT.md#sites-on-this-server):
 * one read-only exec, each file's sha256 (as the login user, else through `sudo -n`), or that it
 * is gone. A file it cannot read is left as it was recorded. Writes nothing on the server.
 */
export const ADOPTED_LOOK_SCRIPT = `for f in "$@"; do
  d=\${f%/*}
  if [ ! -x "$d" ] && ! sudo -n test -x "$d" 2>/dev/null; then
    printf 'PORTICO_ADOPTED=unreadable %s\\n' "$f"; continue
  fi
  if [ ! -e "$f" ] && ! sudo -n test -e "$f" 2>/dev/null; then
    printf 'PORTICO_ADOPTED=missing %s\\n' "$f"; continue
  fi
  h=$(sha256sum -- "$f" 2>/dev/null || sudo -n sha256sum -- "$f" 2>/dev/null)
  h=\${h%% *}
  printf 'PORTICO_ADOPTED=%s %s\\n' "\${h:-unreadable}" "$f"
done
exit 0`;

const SCRIPT_TIMEOUT_MS = 30_000;

export type TAdoptedFileState = { sha256: string } | 'missing' | 'unreadable';

/** The answer, each asked file once; what is not an allowlisted line is not read. */
export function parseAdoptedLook(stdout: string, files: string[]): Map<string, TAdoptedFileState> {
  const found = new Map<string, TAdoptedFileState>();
  for (const line of stdout.split('\n')) {
    const m = /^PORTICO_ADOPTED=(missing|unreadable|[0-9a-f]{64}) (\/\S+)$/.exec(line);
    if (!m || !files.includes(m[2]!) || found.has(m[2]!)) continue;
    const state = m[1]!;
    found.set(m[2]!, state === 'missing' || state === 'unreadable' ? state : { sha256: state });
  }
  return found;
}

/**
 * Looks at the adopted files of a server in the session the check opened and records on each
 * proxy whether its file changed by hand or is gone.
 */
export async function lookAtAdoptedFiles(
  repository: Pick<TSshServersRepository, 'adoptedOnServer' | 'markAdoptedChange'>,
  session: Pick<TSshSession, 'run'>,
  serverId: string,
  now: Date,
): Promise<void> {
  const adopted = (await repository.adoptedOnServer(serverId)).filter(
    (p) => p.adoptedFile !== null && SCANNED_PATH.test(p.adoptedFile),
  );
  if (adopted.length === 0) return;
  const files = [...new Set(adopted.map((p) => p.adoptedFile!))];
  const answer = await session.run(ADOPTED_LOOK_SCRIPT, {
    args: files,
    timeoutMs: SCRIPT_TIMEOUT_MS,
  });
  const states = parseAdoptedLook(answer.stdout, files);
  for (const proxy of adopted) {
    const state = states.get(proxy.adoptedFile!);
    if (state === undefined || state === 'unreadable') continue;
    if (state === 'missing') await repository.markAdoptedChange(proxy.id, 'kept', now);
    else {
      const changed = state.sha256 !== proxy.adoptedSha256;
      await repository.markAdoptedChange(proxy.id, changed ? now : null, null);
    }
  }
}
