import type { TOsFamily } from '../site-names';
import type { TSshSession } from '../ssh';
import type { TRunOptions, TRunResult } from '../ssh/run';
import type { EngineLog } from './logger';
import type { TEngineSettings } from './types';

/** What the OS detection found; later steps choose commands and paths from it. */
export interface TServerFacts {
  family: TOsFamily;
  prettyName: string;
  systemd: boolean;
  ipv6: boolean;
}

/** What every step after connecting works with. */
export interface TStepContext {
  session: TSshSession;
  log: EngineLog;
  settings: TEngineSettings;
  signal?: AbortSignal;
  server: TServerFacts;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** Runs a constant script as root (directly or through sudo); a default timeout applies. */
export function asRoot(
  session: TSshSession,
  script: string,
  options: Omit<TRunOptions, 'sudo'> = {},
): Promise<TRunResult> {
  return session.run(script, { timeoutMs: DEFAULT_TIMEOUT_MS, ...options, sudo: true });
}

/** Values of lines `KEY=value` a script printed (login scripts may print other lines too). */
export function marked(stdout: string, key: string): string[] {
  const prefix = `${key}=`;
  return stdout
    .split('\n')
    .filter((line) => line.startsWith(prefix))
    .map((line) => line.slice(prefix.length));
}

export function firstMarked(stdout: string, key: string): string | undefined {
  return marked(stdout, key)[0];
}

/** stderr then stdout, for messages that quote what a tool said. */
export function outputOf(result: TRunResult): string {
  return [result.stderr, result.stdout].filter((s) => s.trim()).join('\n');
}

/** Lines a script printed with `sed 's/^/PREFIX/'`, prefix removed. */
export function prefixed(stdout: string, prefix: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith(prefix))
    .map((line) => line.slice(prefix.length));
}
