/**
 * The unique constraint an insert or update broke, read from PostgreSQL's unique-violation error
 * (23505); undefined for any other error. node-postgres and PGlite both expose code and
 * constraint; drizzle may wrap them in `cause`.
 */
export function violatedConstraint(error: unknown): string | undefined {
  for (let e = error as { code?: string; constraint?: string; cause?: unknown } | undefined; e; ) {
    if (e.code === '23505') return e.constraint;
    e = e.cause as typeof e;
  }
  return undefined;
}
