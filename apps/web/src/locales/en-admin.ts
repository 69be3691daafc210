import admin from './en.json?group=admin';

// The ADMIN_TEXTS namespace: the web's `admin` group (the admin panel's screens), under its own
// key so the screens keep their `admin.…` keys. A module of its own (build/json-group.ts), so it
// stays out of the landing page's chunk.
export const catalog = { admin };
