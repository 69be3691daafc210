import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { userQueryKey, userQueryOptions } from '@/lib/current-user';
import { currentLanguage, i18n, i18nReady } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';
import { reloadOnStaleChunk } from '@/lib/stale-chunks';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

reloadOnStaleChunk();

const queryClient = createQueryClient();
const app = (
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>
);

// The server sent the landing page already rendered: only to a visitor without a session
// cookie, on `/`, in the language it picked (plugins/static.ts there). It shows while the
// scripts load, its controls inert (hooks/use-hydrated.ts). React takes it over as it is once
// the texts are in, when this visit resolves to that language; otherwise it renders its own
// page, which replaces the prerendered one when ready.
const prerendered = root.dataset.prerendered;
if (prerendered) {
  // Without a session cookie the session check can only say "signed out": the page does not
  // wait for it. It is still asked, after, so a page kept from an older visit corrects itself.
  queryClient.setQueryData(userQueryKey, null);
  void i18nReady(i18n).then(() => {
    if (prerendered === currentLanguage() && window.location.pathname === '/') {
      hydrateRoot(root, app);
    } else {
      createRoot(root).render(app);
    }
    void queryClient.invalidateQueries({ queryKey: userQueryKey });
  });
} else {
  // Two requests start now, side by side, before anything renders: the session check (the
  // router waits for it) and the texts of the detected language (a chunk of their own).
  void queryClient.prefetchQuery(userQueryOptions());
  void i18nReady(i18n).then(() => createRoot(root).render(app));
}
