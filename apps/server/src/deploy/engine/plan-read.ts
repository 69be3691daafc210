import { createHash } from 'node:crypto';
import { htpasswdPath, porticoSiteFiles, SERVER_NAMES_TUNING_PATH } from '../site-names';
import { assertRemotePath } from '../ssh/write-file';
import { StepError, withOutput } from './failure';
import { msg } from './messages';
import { liveDir } from './site-steps';
import { asRoot, marked, outputOf, type TStepContext } from './step-context';

/** A file bigger than this is not read for a plan (its hash still is): site files are small. */
export const PLAN_READ_LIMIT = 256 * 1024;

// Read-only: each path as it is now (a link's target, or a regular file's bytes up to $1
// bytes, else only its sha256), and whether the domain's certificate is there ($2 its live
// directory). Paths are Portico's own allowlisted names, passed as arguments.
const READ_SCRIPT = `limit=$1 live=$2; shift 2
for f in "$@"; do
  if [ -L "$f" ]; then
    printf 'PORTICO_READ=%s link ' "$f"; readlink -- "$f" | tr -d '\\n' | base64 -w0; echo
  elif [ -f "$f" ]; then
    size=$(stat -c %s -- "$f")
    if [ "$size" -le "$limit" ]; then
      printf 'PORTICO_READ=%s file ' "$f"; base64 -w0 < "$f"; echo
    else
      printf 'PORTICO_READ=%s large %s\\n' "$f" "$(sha256sum < "$f" | cut -d' ' -f1)"
    fi
  elif [ -e "$f" ]; then
    printf 'PORTICO_READ=%s other\\n' "$f"
  else
    printf 'PORTICO_READ=%s absent\\n' "$f"
  fi
done
if [ -f "$live/fullchain.pem" ] && [ -f "$live/privkey.pem" ]; then echo PORTICO_CERT=yes; else echo PORTICO_CERT=no; fi
echo PORTICO_READ_DONE=yes
exit 0`;

/** One path on the server as a plan saw it. */
export type TRemoteFile =
  | { state: 'absent' }
  | { state: 'other' }
  | { state: 'link'; target: string }
  | { state: 'file'; content: string; sha256: string }
  | { state: 'large'; sha256: string };

export interface TServerFiles {
  files: Map<string, TRemoteFile>;
  hasCertificate: boolean;
  /** What apply compares: the content of every path a deployment may write, and the certificate. */
  fingerprint: string;
}

/**
 * Every path a deployment of the domain may write, in either layout: what a plan reads; `extra`
 * the uploaded certificate's chain and key when the proxy has one.
 */
export function plannedPaths(domain: string, extra: readonly string[] = []): string[] {
  return [...porticoSiteFiles(domain), htpasswdPath(domain), SERVER_NAMES_TUNING_PATH, ...extra];
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

function stateWord(f: TRemoteFile): string {
  switch (f.state) {
    case 'file':
    case 'large':
      return `sha256:${f.sha256}`;
    case 'link':
      return `link:${f.target}`;
    default:
      return f.state;
  }
}

/** The hash of what was read: same files, same links, same certificate presence, same value. */
export function fingerprintOf(files: Map<string, TRemoteFile>, hasCertificate: boolean): string {
  const lines = [...files.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, f]) => `${path}\t${stateWord(f)}`);
  lines.push(`certificate\t${hasCertificate ? 'yes' : 'no'}`);
  return `v1:${sha256(lines.join('\n'))}`;
}

function parseLine(rest: string): TRemoteFile | undefined {
  const m = /^(link|file|large|other|absent)(?: ([A-Za-z0-9+/=]*))?$/.exec(rest);
  if (!m) return undefined;
  const value = m[2] ?? '';
  switch (m[1]) {
    case 'link':
      return { state: 'link', target: Buffer.from(value, 'base64').toString('utf8') };
    case 'file': {
      const bytes = Buffer.from(value, 'base64');
      return { state: 'file', content: bytes.toString('utf8'), sha256: sha256(bytes) };
    }
    case 'large':
      return /^[0-9a-f]{64}$/.test(value) ? { state: 'large', sha256: value } : undefined;
    default:
      return { state: m[1] as 'absent' | 'other' };
  }
}

/** What the server answered, each asked path accounted for; undefined when it is not whole. */
export function parseServerFiles(stdout: string, paths: string[]): TServerFiles | undefined {
  if (!marked(stdout, 'PORTICO_READ_DONE').includes('yes')) return undefined;
  const files = new Map<string, TRemoteFile>();
  for (const line of marked(stdout, 'PORTICO_READ')) {
    const space = line.indexOf(' ');
    const path = line.slice(0, space);
    const file = parseLine(line.slice(space + 1));
    if (!paths.includes(path) || !file) return undefined;
    files.set(path, file);
  }
  if (paths.some((p) => !files.has(p))) return undefined;
  const hasCertificate = marked(stdout, 'PORTICO_CERT')[0] === 'yes';
  return { files, hasCertificate, fingerprint: fingerprintOf(files, hasCertificate) };
}

/**
 * Reads, never writes, the files a deployment of the domain may write: what a plan diffs
 * against, and what apply checks is still as the plan saw it.
 */
export async function readServerFiles(
  c: Pick<TStepContext, 'session'>,
  domain: string,
  step: string,
  extra: readonly string[] = [],
): Promise<TServerFiles> {
  const paths = plannedPaths(domain, extra);
  for (const p of paths) assertRemotePath(p);
  const r = await asRoot(c.session, READ_SCRIPT, {
    args: [String(PLAN_READ_LIMIT), liveDir(domain), ...paths],
  });
  const read = r.code === 0 ? parseServerFiles(r.stdout, paths) : undefined;
  if (!read) {
    throw new StepError('internal', step, withOutput(msg('plan.readFailed'), outputOf(r)));
  }
  return read;
}

/**
 * Apply's guard, before anything is written (packages included): the files a deployment may
 * write, and the certificate, are still as the plan saw them (`extra` as the plan was given).
 */
export async function assertUnchangedSincePlan(
  c: Pick<TStepContext, 'session'>,
  domain: string,
  fingerprint: string,
  extra: readonly string[] = [],
): Promise<void> {
  const now = await readServerFiles(c, domain, 'preflight', extra);
  if (now.fingerprint !== fingerprint) {
    throw new StepError('server_changed', 'preflight', msg('plan.serverChanged'));
  }
}
