/**
 * A background pass over rows read a batch at a time in id order (keyset: each batch starts
 * after the last id of the one before), each batch worked by at most `concurrency` at once.
 * Memory holds one batch, however many rows the table has; the next batch is read when this one
 * is done. `work` handles its own failures: one that throws stops the pass.
 */
export async function batchedPass<TRow>(
  pass: {
    read: (afterId: string | undefined) => Promise<TRow[]>;
    idOf: (row: TRow) => string;
    concurrency: number;
  },
  work: (row: TRow) => Promise<void>,
): Promise<void> {
  let after: string | undefined;
  for (;;) {
    const queue = await pass.read(after);
    if (queue.length === 0) return;
    after = pass.idOf(queue[queue.length - 1]!);
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await work(next);
    };
    await Promise.all(Array.from({ length: Math.min(pass.concurrency, queue.length) }, worker));
  }
}
