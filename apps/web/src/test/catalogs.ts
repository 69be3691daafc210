import { SERVER_TEXTS, type TCatalogLoader } from '@/lib/i18n';
import { catalog as en } from '@/locales/en-catalog';
import { catalog as enServer } from '@/locales/en-server';
import { catalog as es } from '@/locales/es-catalog';
import { catalog as esServer } from '@/locales/es-server';

const screen = { en, es };
const server = { en: enServer, es: esServer };

/** Every catalog at hand: an i18n instance made with it is ready as soon as it is created. */
export const loadCatalogNow: TCatalogLoader = (language, namespace) =>
  (namespace === SERVER_TEXTS ? server : screen)[language];
