/**
 * A query built at its first use, then kept. Repositories are made again for each transaction
 * (db/transaction.ts): building each one's prepared queries up front cost more CPU than the
 * statements a proxy edit's transaction runs (about 0.6 ms an edit, profiled under the
 * 200-session load mix), for queries the transaction never used.
 */
export function builtOnce<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => {
    built ??= build();
    return built;
  };
}
