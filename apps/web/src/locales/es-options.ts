import options from './es.json?group=options';

// The OPTIONS_TEXTS namespace: the web's `options` group (a proxy's options in the edit dialog,
// the wizard's advanced part and the details page), under its own key so the screens keep their
// `options.…` keys. A module of its own (build/json-group.ts), so it stays out of the landing
// page's chunk.
export const catalog = { options };
