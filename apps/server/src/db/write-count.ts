import type { PGlite } from '@electric-sql/pglite';

/**
 * How many writes to Portico's own tables this process has started or finished: two equal
 * readings mean that no write ran, even in part, between them. On PGlite this process is the
 * database's only writer (the data-dir lock), so an answer read between two equal readings is
 * still what the database holds (plugins/answer-cache.ts).
 */
export interface TWriteCount {
  current(): number;
}

// A plain read: SELECT without a locking clause. Anything else (INSERT, UPDATE, DELETE, a
// WITH that may hold one, DDL, several statements) is counted as a write; counting a read as
// a write only costs a cache miss, the other way round would serve a stale answer.
const PLAIN_READ = /^\s*select\b/i;
const LOCKING = /\bfor\s+(update|share|no\s+key\s+update|key\s+share)\b/i;

export function isPlainRead(statement: string): boolean {
  return PLAIN_READ.test(statement) && !LOCKING.test(statement);
}

/**
 * The PGlite instance as drizzle sees it, counting every statement that may write (before it
 * starts and after it ends) and every transaction as a write. pg-boss works on the instance
 * itself: its own schema holds nothing an answer is made of, and it polls every few seconds.
 */
export function countingWrites(pglite: PGlite): { client: PGlite; writes: TWriteCount } {
  let count = 0;
  async function counted<T>(work: () => Promise<T>): Promise<T> {
    count += 1;
    try {
      return await work();
    } finally {
      count += 1;
    }
  }
  const wrapped: Record<PropertyKey, unknown> = {
    query: (text: string, ...rest: unknown[]) => {
      const run = () => (pglite.query as (...args: unknown[]) => Promise<unknown>)(text, ...rest);
      return isPlainRead(text) ? run() : counted(run);
    },
    exec: (...args: unknown[]) =>
      counted(() => (pglite.exec as (...a: unknown[]) => Promise<unknown>)(...args)),
    transaction: (...args: unknown[]) =>
      counted(() => (pglite.transaction as (...a: unknown[]) => Promise<unknown>)(...args)),
  };
  const client = new Proxy(pglite, {
    get(target, property) {
      if (Object.hasOwn(wrapped, property)) return wrapped[property];
      const value = Reflect.get(target, property, target);
      // PGlite's methods use private fields: they must run on the instance, not the proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { client, writes: { current: () => count } };
}
