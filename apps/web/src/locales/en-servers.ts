import servers from './en.json?group=servers';

// The SERVERS_TEXTS namespace: the web's `servers` group (the saved servers' list and page),
// under its own key so the screens keep their `servers.…` keys. A module of its own
// (build/json-group.ts), so it stays out of the landing page's chunk.
export const catalog = { servers };
