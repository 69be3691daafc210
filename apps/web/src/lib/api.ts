import { createApiClient } from './api-client';
import { currentLanguage } from './i18n';

/** The app's one API client: same origin, cookies, Accept-Language from i18n. */
export const api = createApiClient({ getLanguage: currentLanguage });
