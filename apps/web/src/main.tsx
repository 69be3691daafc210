import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { userQueryOptions } from '@/features/auth/api/get-user';
import { i18n, i18nReady } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';
import { reloadOnStaleChunk } from '@/lib/stale-chunks';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

reloadOnStaleChunk();

// Two requests start now, side by side, before anything renders: the session check (the
// router waits for it) and the texts of the detected language (a chunk of their own).
const queryClient = createQueryClient();
void queryClient.prefetchQuery(userQueryOptions());
void i18nReady(i18n).then(() =>
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  ),
);
