import { dumpOf } from './nginx-dump';
import { firstMarked, marked } from './step-context';
import type { TKeptDumps } from './types';

/**
 * The last trusted dump of each server's nginx configuration, kept in this process so that a
 * deployment's preflight need not parse the whole configuration again (seconds with hundreds of
 * sites, docs/PERFORMANCE.md): the server proves it still holds the files the dump came from
 * (`KEPT_DUMP_PART`, one `find` over them) before the dump is believed. Kept by address and
 * port; the host key must match too. Bounded in servers and in characters, least recently used
 * first out. The composition root makes one (services.ts) and hands it to the engine in its
 * settings; without one, each run reads the dump itself.
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

export class NginxDumpCache implements TKeptDumps {
  private readonly kept = new Map<string, TKeptDump>();
  private keptChars = 0;

  private forget(at: string): void {
    const was = this.kept.get(at);
    if (!was) return;
    this.kept.delete(at);
    this.keptChars -= was.dump.length;
  }

  /** The arguments `KEPT_DUMP_PART` takes for this server (`at`: address and port). */
  args(at: string): string[] {
    const held = this.kept.get(at);
    return held ? [held.signature, String(held.watched.length), ...held.watched] : ['-', '0'];
  }

  /** Keeps the dump a root script read and signed (`nginx_sign`), or forgets a stale one. */
  keep(at: string, fingerprint: string, stdout: string): void {
    this.forget(at);
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
    this.kept.set(at, { fingerprint, signature, watched, dump });
    this.keptChars += dump.length;
    for (const [oldest] of this.kept) {
      if (this.kept.size <= MAX_SERVERS && this.keptChars <= MAX_CHARS) break;
      this.forget(oldest);
    }
  }

  /** The dump kept for `at` if it is the one the server vouched for (`same`), now most recent. */
  vouched(at: string, fingerprint: string, same: string): string | undefined {
    // Another run may have replaced it since the preflight's arguments were made.
    const held = this.kept.get(at);
    if (!held || held.signature !== same || held.fingerprint !== fingerprint) return undefined;
    this.kept.delete(at);
    this.kept.set(at, held);
    return held.dump;
  }
}

/** A run's server as the kept dumps know it: its place, and the cache (none: nothing kept). */
export interface TDumpPlace {
  at: string;
  cache: TKeptDumps;
}

/** Where a run's server is, as the kept dumps are keyed; undefined without a cache. */
export function dumpPlace(
  input: { serverIp: string; sshPort: number },
  cache: TKeptDumps | undefined,
): TDumpPlace | undefined {
  return cache ? { at: `${input.serverIp}:${input.sshPort}`, cache } : undefined;
}

/** The arguments `KEPT_DUMP_PART` takes: the kept dump's, or none held. */
export function keptDumpArgs(place: TDumpPlace | undefined): string[] {
  return place ? place.cache.args(place.at) : ['-', '0'];
}

/** Keeps the dump a root script read and signed (`nginx_sign`), or forgets a stale one. */
export function keepDump(place: TDumpPlace | undefined, fingerprint: string, stdout: string) {
  place?.cache.keep(place.at, fingerprint, stdout);
}

/**
 * The dump in a `KEPT_DUMP_PART` answer: the one kept when the server said it still holds, else
 * the one it printed (kept for the next run when signed). Undefined when the server said "the
 * same" but nothing matching is kept any more: the caller reads the dump itself.
 */
export function dumpOfAnswer(
  place: TDumpPlace | undefined,
  fingerprint: string,
  stdout: string,
): string | undefined {
  const same = firstMarked(stdout, 'PORTICO_DUMP_SAME');
  if (same === undefined) {
    keepDump(place, fingerprint, stdout);
    return dumpOf(stdout);
  }
  return place?.cache.vouched(place.at, fingerprint, same);
}
