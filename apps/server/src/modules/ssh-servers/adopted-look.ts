import { SCANNED_PATH } from '@portico/shared/ssh-servers/site-scan';
import { splitDump } from '../../deploy/nginx-config';
import type { TSshSession } from '../../deploy/ssh';
import type { TScanAnswer } from './site-scan-script';
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
 * The adopted files as a site scan found them: a file in nginx's configuration by its hash, a
 * file not in it gone. Only a whole configuration (nginx -t passed, the dump not cut) tells a
 * gone file; otherwise a file not seen is left as it was recorded.
 */
export function adoptedInScan(
  answer: Pick<TScanAnswer, 'dump' | 'hashes' | 'nginxTestExit' | 'truncated'>,
  files: string[],
): Map<string, TAdoptedFileState> {
  const dumped = new Set(splitDump(answer.dump).map((f) => f.path));
  const whole = answer.nginxTestExit === 0 && !answer.truncated;
  const found = new Map<string, TAdoptedFileState>();
  for (const file of files) {
    const sha256 = answer.hashes.get(file);
    if (dumped.has(file)) found.set(file, sha256 ? { sha256 } : 'unreadable');
    else if (whole) found.set(file, 'missing');
  }
  return found;
}

type TAdoptedWrites = Pick<TSshServersRepository, 'adoptedOnServer' | 'markAdoptedChange'>;

/** A server's adopted proxies whose files a look may name (paths the scan's allowlist passes). */
export async function adoptedFilesOn(repository: TAdoptedWrites, serverId: string) {
  const adopted = (await repository.adoptedOnServer(serverId)).filter(
    (p) => p.adoptedFile !== null && SCANNED_PATH.test(p.adoptedFile),
  );
  return { adopted, files: [...new Set(adopted.map((p) => p.adoptedFile!))] };
}

/**
 * Records on each adopted proxy what was found of its file: changed by hand (or back as
 * adopted), gone (or back); a file not looked at or unreadable changes nothing.
 */
export async function recordAdoptedFiles(
  repository: Pick<TSshServersRepository, 'markAdoptedChange'>,
  adopted: Awaited<ReturnType<typeof adoptedFilesOn>>['adopted'],
  states: Map<string, TAdoptedFileState>,
  now: Date,
): Promise<void> {
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

/**
 * Looks at the adopted files of a server in the session the check opened and records on each
 * proxy whether its file changed by hand or is gone.
 */
export async function lookAtAdoptedFiles(
  repository: TAdoptedWrites,
  session: Pick<TSshSession, 'run'>,
  serverId: string,
  now: Date,
): Promise<void> {
  const { adopted, files } = await adoptedFilesOn(repository, serverId);
  if (adopted.length === 0) return;
  const answer = await session.run(ADOPTED_LOOK_SCRIPT, {
    args: files,
    timeoutMs: SCRIPT_TIMEOUT_MS,
  });
  await recordAdoptedFiles(repository, adopted, parseAdoptedLook(answer.stdout, files), now);
}
