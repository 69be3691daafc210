import settings from './es.json?group=settings';

// The SETTINGS_TEXTS namespace: the web's `settings` group (the settings page and the required
// two-factor setup), under its own key so the screens keep their `settings.…` keys. A module of
// its own (build/json-group.ts), so it stays out of the landing page's chunk.
export const catalog = { settings };
