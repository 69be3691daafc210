import type { TCatalogLoader } from '@/lib/i18n';
import { catalog as en } from '@/locales/en-catalog';
import { catalog as es } from '@/locales/es-catalog';

/** Every catalog at hand: an i18n instance made with it is ready as soon as it is created. */
export const loadCatalogNow: TCatalogLoader = (language) => (language === 'en' ? en : es);
