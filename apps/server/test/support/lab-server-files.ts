import { expect } from 'vitest';
import type { TLab, TLabServer } from '../../../../testbed/src/lab';

/** Where a read of the server ("Check now", a scan, a plan) must leave everything as it was. */
export const WATCHED_DIRS = ['/etc/nginx', '/etc/letsencrypt', '/etc/cron.d'];

/**
 * Every entry under `dirs` with its type, path, mode, size, mtime and link target, every regular
 * file's sha256, and what /tmp holds, read inside the server (not through Portico): equal before
 * and after means nothing there was written, touched or left behind.
 */
export async function serverFiles(
  lab: TLab,
  server: TLabServer,
  dirs: string[] = WATCHED_DIRS,
): Promise<string> {
  const list = dirs.join(' ');
  const script = [
    `find ${list} -printf '%y %p %m %s %T@ %l\\n' 2>/dev/null | sort`,
    `find ${list} -type f -exec sha256sum {} + 2>/dev/null | sort`,
    // What is in /tmp (not /tmp's own time: a shell's here-document comes and goes there).
    "find /tmp -mindepth 1 -printf '%y %p %m %s %T@\\n' | sort",
  ].join('; ');
  const result = await lab.exec(server.name, ['bash', '-c', script]);
  expect(result.stdout, result.stderr).not.toBe('');
  return result.stdout;
}
