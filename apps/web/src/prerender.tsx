// The build's server-side entry (`vite build --ssr src/prerender.tsx`): the landing page as
// React renders it for a signed-out visitor, once per language. build/prerender-landing.ts
// writes it into the built index.html; the server sends that page to a visitor with no session,
// and main.tsx hydrates it. It is the same tree main.tsx hydrates, so the markup matches.
import { SUPPORTED_LANGUAGES, type TLanguage } from '@portico/shared/i18n/language';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import { App } from '@/app/app';
import { userQueryKey } from '@/lib/current-user';
import { createI18n } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';
import { catalog as en } from '@/locales/en-catalog';
import { catalog as es } from '@/locales/es-catalog';

export const LANDING_LANGUAGES = SUPPORTED_LANGUAGES;

/** The markup of `<div id="root">` on `/` for a signed-out visitor in `language`. */
export function renderLanding(language: TLanguage): string {
  // Only the landing page's own texts: the other namespaces belong to screens behind sign-in.
  const i18n = createI18n(
    (lang, namespace) => (namespace === 'translation' ? (lang === 'en' ? en : es) : {}),
    language,
  );
  const queryClient = createQueryClient();
  queryClient.setQueryData(userQueryKey, null);
  try {
    return renderToString(
      <StrictMode>
        <Router ssrPath="/">
          <App queryClient={queryClient} i18n={i18n} />
        </Router>
      </StrictMode>,
    );
  } finally {
    // Its queries' 5-minute collection timers would otherwise keep the build's process alive.
    queryClient.clear();
  }
}
