import * as React from 'react';
import { useLocation, useSearch } from 'wouter';
import {
  readListState,
  type TListUrlShape,
  type TListUrlState,
  writeListState,
} from '@/lib/list-url-state';

export interface TListUrlControls<F extends string> {
  state: TListUrlState<F>;
  /** A new search: back to the first page, replacing the entry (typing is not a history step). */
  search: (q: string) => void;
  /** A filter chosen or cleared (undefined): back to the first page, as a step of its own. */
  filter: (name: F, value: string | undefined) => void;
  sortBy: (sort: string | null) => void;
  next: (cursor: string) => void;
  previous: () => void;
  first: () => void;
}

/** A paged list's view read from and written to the address (lib/list-url-state.ts). */
export function useListUrlState<F extends string>(shape: TListUrlShape<F>): TListUrlControls<F> {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const state = React.useMemo(() => readListState(search, shape), [search, shape]);

  return React.useMemo(() => {
    const go = (next: TListUrlState<F>, replace = false) => {
      const query = writeListState(next, shape, search);
      // Keep the hash: home's "view all" link scrolls to the list by it.
      navigate(`${location}${query ? `?${query}` : ''}${window.location.hash}`, { replace });
    };
    return {
      state,
      search: (q) => go({ ...state, q, trail: [] }, true),
      filter: (name, value) => {
        const filters = { ...state.filters };
        if (value === undefined) delete filters[name];
        else filters[name] = value;
        go({ ...state, filters, trail: [] });
      },
      sortBy: (sort) => go({ ...state, sort, trail: [] }),
      next: (cursor) => go({ ...state, trail: [...state.trail, cursor] }),
      previous: () => go({ ...state, trail: state.trail.slice(0, -1) }),
      first: () => go({ ...state, trail: [] }),
    };
  }, [state, shape, search, location, navigate]);
}
