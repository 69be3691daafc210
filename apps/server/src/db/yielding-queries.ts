import type { PGlite } from '@electric-sql/pglite';
import { withOverrides } from './instance-proxy';

/**
 * The PGlite instance as drizzle sees it, letting the event loop take its waiting I/O before
 * each statement. PGlite runs each statement synchronously on this thread, and the next one
 * queued from the promise of the last: ten deployments' statements back to back would hold
 * every HTTP request until all were done (300 ms and more, measured).
 */
export function yieldingQueries(pglite: PGlite): PGlite {
  return withOverrides(pglite, {
    query: async (...args: unknown[]) => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      return (pglite.query as (...a: unknown[]) => Promise<unknown>)(...args);
    },
  });
}
