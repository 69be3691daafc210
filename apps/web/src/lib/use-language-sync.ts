import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { api } from './api';

let lastSent: string | undefined;

/**
 * Tells the server the language the signed-in user reads Portico in, when it is first known and
 * whenever it changes: certificate alerts (e-mail, webhook) are written in it. A failure only
 * means the next change tries again.
 */
export function useLanguageSync(userId: string) {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  React.useEffect(() => {
    if (language !== 'en' && language !== 'es') return;
    const key = `${userId}:${language}`;
    if (lastSent === key) return;
    lastSent = key;
    api.requestJson('PUT', '/api/account/language', { language }).catch(() => {
      lastSent = undefined;
    });
  }, [userId, language]);
}
