/**
 * Waits until `done()` holds, looking every 20 ms; fails naming `what` once `withinMs` has
 * passed. For a test whose point is that something happens soon (well inside a poll's period).
 */
export async function until(
  what: string,
  done: () => boolean | Promise<boolean>,
  withinMs: number,
): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
