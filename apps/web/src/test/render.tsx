import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type * as React from 'react';
import { I18nextProvider } from 'react-i18next';
import { TooltipProvider } from '@/components/ui/tooltip';
import {
  ADMIN_TEXTS,
  CERTIFICATE_TEXTS,
  createI18n,
  LISTS_TEXTS,
  loadTexts,
  PLAN_TEXTS,
  SERVER_TEXTS,
  SERVERS_TEXTS,
  SETTINGS_TEXTS,
} from '@/lib/i18n';
import { loadCatalogNow } from './catalogs';

/**
 * Renders with a fresh query client, an i18n instance switched to `lang`, the server's
 * sentences, the certificate, settings, plan, lists and servers texts loaded (as the routes that show them do), and tooltips.
 */
export async function renderWithProviders(
  ui: React.ReactElement,
  { lang = 'es', queryClient }: { lang?: 'es' | 'en'; queryClient?: QueryClient } = {},
) {
  const i18n = createI18n(loadCatalogNow);
  await i18n.changeLanguage(lang);
  await Promise.all(
    (
      [
        SERVER_TEXTS,
        CERTIFICATE_TEXTS,
        SETTINGS_TEXTS,
        PLAN_TEXTS,
        LISTS_TEXTS,
        SERVERS_TEXTS,
        ADMIN_TEXTS,
      ] as const
    ).map((namespace) => loadTexts(namespace, i18n)),
  );
  const client = queryClient ?? new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <TooltipProvider>{ui}</TooltipProvider>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { ...result, i18n, queryClient: client };
}
