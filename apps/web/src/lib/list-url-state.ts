// A paged list's view kept in the address (docs/PRODUCT.md#lists-in-pages): the search, the
// filters, the sort and the pages walked so far, so a link, a reload or the back button shows
// the same view. Values the list does not know are dropped, never sent on to the server.

/** The server's cursors are base64url; the walk joins them with a dot, which they never hold. */
const CURSOR = /^[A-Za-z0-9_-]{1,512}$/;
const TRAIL_SEPARATOR = '.';
/** As the server's ZPageQuery: longer searches are cut, never refused. */
const Q_MAX = 200;

export interface TListUrlState<F extends string> {
  q: string;
  /** Each filter's chosen value, when one is chosen. */
  filters: Partial<Record<F, string>>;
  /** Null: the list's default sort. */
  sort: string | null;
  /** The cursors of the pages after the first, in walking order: the last is this page's. */
  trail: string[];
}

/** What a list accepts in its address: each filter's values and the sorts. */
export interface TListUrlShape<F extends string> {
  filters: Record<F, readonly string[]>;
  sorts: readonly string[];
  /** For a second list on the same screen: its parameters are named `<prefix>_q`, …. */
  prefix?: string;
}

const nameIn = (shape: TListUrlShape<string>, name: string) =>
  shape.prefix ? `${shape.prefix}_${name}` : name;

export function readListState<F extends string>(
  search: string,
  shape: TListUrlShape<F>,
): TListUrlState<F> {
  const params = new URLSearchParams(search);
  const get = (name: string) => params.get(nameIn(shape, name));
  const filters: Partial<Record<F, string>> = {};
  for (const name of Object.keys(shape.filters) as F[]) {
    const value = get(name);
    if (value !== null && shape.filters[name].includes(value)) filters[name] = value;
  }
  const sort = get('sort');
  const trail = (get('page') ?? '').split(TRAIL_SEPARATOR).filter(Boolean);
  return {
    q: (get('q') ?? '').slice(0, Q_MAX),
    filters,
    sort: sort !== null && shape.sorts.includes(sort) ? sort : null,
    // A walk with any part that is no cursor starts again at the first page.
    trail: trail.every((cursor) => CURSOR.test(cursor)) ? trail : [],
  };
}

/**
 * The address's query string with this list's state in it (nothing of it for the default view),
 * without the `?`; what else `search` holds (another list's state) stays.
 */
export function writeListState<F extends string>(
  state: TListUrlState<F>,
  shape: TListUrlShape<F>,
  search = '',
): string {
  const params = new URLSearchParams(search);
  const set = (name: string, value: string | null | undefined) => {
    if (value) params.set(nameIn(shape, name), value);
    else params.delete(nameIn(shape, name));
  };
  set('q', state.q.trim());
  for (const name of Object.keys(shape.filters) as F[]) set(name, state.filters[name]);
  set('sort', state.sort);
  set('page', state.trail.join(TRAIL_SEPARATOR));
  return params.toString();
}

/** The list parameters of the state's page, as the server's query string takes them. */
export function pageQuery<F extends string>(
  state: TListUrlState<F>,
  limit: number,
): Record<string, string> {
  const query: Record<string, string> = { limit: String(limit) };
  if (state.q.trim()) query.q = state.q.trim();
  for (const [name, value] of Object.entries(state.filters)) {
    if (typeof value === 'string') query[name] = value;
  }
  if (state.sort) query.sort = state.sort;
  const cursor = state.trail.at(-1);
  if (cursor) query.cursor = cursor;
  return query;
}
