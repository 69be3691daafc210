import raw from '@portico/shared/locales/es.json?raw';
import type { TCatalog } from '@/lib/i18n';
import webRaw from './es.json?raw';

// Read from the files' text (?raw) rather than imported as JSON: the landing page's chunk takes
// groups of the same files, and a module sits in one chunk only. Imported as JSON here too, the
// whole catalogs would move into a chunk the landing page loads. The web's `certificate` group
// rides here (signed-in screens only; the translation namespace falls back to this one).
const web = JSON.parse(webRaw) as { certificate: TCatalog };
export const catalog = { ...(JSON.parse(raw) as TCatalog), certificate: web.certificate };
