import raw from '@portico/shared/locales/en.json?raw';

// Read from the file's text (?raw) rather than imported as JSON: the landing page's chunk takes
// `validation` and `errors` from the same file, and a module sits in one chunk only. Imported
// as JSON here too, the whole catalog would move into a chunk the landing page loads.
export const catalog = JSON.parse(raw) as Record<string, unknown>;
