import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { i18n as TI18n } from 'i18next';
import * as React from 'react';
import { I18nextProvider } from 'react-i18next';
import { DeferredToaster } from '@/components/layout/deferred-toaster';
import { i18n as appI18n } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';

export function AppProvider({
  queryClient: given,
  i18n = appI18n,
  children,
}: {
  /** A client made before the first render (main.tsx starts the session check with it). */
  queryClient?: QueryClient;
  /** The app's own instance unless given (the build's prerender gives one per language). */
  i18n?: TI18n;
  children: React.ReactNode;
}) {
  const [queryClient] = React.useState(() => given ?? createQueryClient());
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        {children}
        <DeferredToaster />
      </QueryClientProvider>
    </I18nextProvider>
  );
}
