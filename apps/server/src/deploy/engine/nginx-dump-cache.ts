import { dumpOf } from './nginx-dump';
import { firstMarked, marked } from './step-context';

/**
 * The last trusted dump of each server's nginx configuration, kept in this process so that a
 * deployment's preflight need not parse the whole configuration again (seconds with hundreds of
 * sites, docs/PERFORMANCE.md): the server proves it still holds the files the dump came from
 * (`KEPT_DUMP_PART`, one `find` over them) before the dump is believed. Kept by address and
 * port; the host key must match too. Bounded in servers and in characters, least recently used
 * first out.
 */
interface TKeptDump {
  fingerprint: string;
  signature: string;
  /** The main file, then the include patterns: what the signature watched. */
  watched: string[];
  dump: string;
}

const MAX_SERVERS = 500;
const MAX_CHARS = 8 * 1024 * 1024;
const MAX_WATCHED = 100;
// Paths the server printed travel back to it as arguments of a root script: allowlisted.
const WATCHABLE = /^[A-Za-z0-9._/*?@+-]{1,512}$/;

const kept = new Map<string, TKeptDump>();
let keptChars = 0;

function forget(at: string): void {
  const was = kept.get(at);
  if (!was) return;
  kept.delete(at);
  keptChars -= was.dump.length;
}

/** The arguments `KEPT_DUMP_PART` takes for this server (`at`: address and port). */
export function keptDumpArgs(at: string | undefined): string[] {
  const held = at === undefined ? undefined : kept.get(at);
  return held ? [held.signature, String(held.watched.length), ...held.watched] : ['-', '0'];
}

/** Keeps the dump a root script read and signed (`nginx_sign`), or forgets a stale one. */
export function keepDump(at: string | undefined, fingerprint: string, stdout: string): void {
  if (at === undefined) return;
  forget(at);
  const signature = firstMarked(stdout, 'PORTICO_DUMP_SIG');
  const watched = marked(stdout, 'PORTICO_DUMP_WATCH');
  const dump = dumpOf(stdout);
  if (
    !signature ||
    !/^[0-9a-f]{64}$/.test(signature) ||
    watched.length === 0 ||
    watched.length > MAX_WATCHED ||
    !watched.every((p) => WATCHABLE.test(p)) ||
    dump.length > MAX_CHARS
  ) {
    return;
  }
  kept.set(at, { fingerprint, signature, watched, dump });
  keptChars += dump.length;
  for (const [oldest] of kept) {
    if (kept.size <= MAX_SERVERS && keptChars <= MAX_CHARS) break;
    forget(oldest);
  }
}

/**
 * The dump in a `KEPT_DUMP_PART` answer: the one kept when the server said it still holds, else
 * the one it printed (kept for the next run when signed). Undefined when the server said "the
 * same" but nothing matching is kept any more: the caller reads the dump itself.
 */
export function dumpOfAnswer(
  at: string | undefined,
  fingerprint: string,
  stdout: string,
): string | undefined {
  const same = firstMarked(stdout, 'PORTICO_DUMP_SAME');
  if (same === undefined) {
    keepDump(at, fingerprint, stdout);
    return dumpOf(stdout);
  }
  // The dump kept now must be the one the server vouched for (another run may have replaced it).
  const held = at === undefined ? undefined : kept.get(at);
  if (!held || held.signature !== same || held.fingerprint !== fingerprint) return undefined;
  // Most recently used last.
  kept.delete(at!);
  kept.set(at!, held);
  return held.dump;
}

/** Where a run's server is, as the kept dumps are keyed. */
export function dumpPlace(input: { serverIp: string; sshPort: number }): string {
  return `${input.serverIp}:${input.sshPort}`;
}
