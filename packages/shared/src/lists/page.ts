import { z } from 'zod';

// Lists in pages (docs/PRODUCT.md#lists-in-pages): a list route given any of its list
// parameters answers one page; given none, the whole list as before (API clients rely on it).

export const PAGE_LIMIT_MAX = 200;
export const PAGE_LIMIT_DEFAULT = 50;

/** The paging parameters every paged list takes. The cursor is opaque: the server's own. */
export const ZPageQuery = z.object({
  limit: z.coerce
    .number('validation.list.limit')
    .int('validation.list.limit')
    .min(1, 'validation.list.limit')
    .max(PAGE_LIMIT_MAX, 'validation.list.limit')
    .optional(),
  cursor: z
    .string()
    .max(512, 'validation.list.cursor')
    .regex(/^[A-Za-z0-9_-]+$/, 'validation.list.cursor')
    .optional(),
  /** Case-insensitive text to find; `%` and `_` are matched as themselves. */
  q: z.string().trim().max(200, 'validation.tooLong').optional(),
});

/** Whether a request asked for a page (any list parameter), or for the whole list. */
export function asksForPage(query: Record<string, unknown>): boolean {
  return Object.values(query).some((value) => value !== undefined);
}

/** One page: `nextCursor` is null on the last; `total` counts every row the filters match. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    nextCursor: z.string().nullable(),
    total: z.number(),
  });
}
