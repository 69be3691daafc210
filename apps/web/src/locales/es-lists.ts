import lists from './es.json?group=lists';

// The LISTS_TEXTS namespace: the web's `lists` group (the search, filter chips and pager of the
// lists in pages), under its own key so the screens keep their `lists.…` keys. A module of its
// own (build/json-group.ts), so it stays out of the landing page's chunk.
export const catalog = { lists };
