/** Rows' ids in a list's default order, as its keyset walks it: newest first, then id descending. */
export function newestFirstIds(rows: { id: string; createdAt: Date }[]): string[] {
  return [...rows]
    .sort((a, b) =>
      a.createdAt.getTime() === b.createdAt.getTime()
        ? b.id.localeCompare(a.id)
        : b.createdAt.getTime() - a.createdAt.getTime(),
    )
    .map((r) => r.id);
}
