import type { QueryClient } from '@tanstack/react-query';
import type { i18n as TI18n } from 'i18next';
import { useTranslation } from 'react-i18next';
import { AppProvider } from './provider';
import { AppRouter } from './router';

function SkipLink() {
  const { t } = useTranslation();
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-[200] focus:rounded-md focus:bg-background focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:shadow-md focus:outline-none focus:ring-2 focus:ring-ring"
    >
      {t('common.skipToContent')}
    </a>
  );
}

export function App({ queryClient, i18n }: { queryClient?: QueryClient; i18n?: TI18n }) {
  return (
    <AppProvider queryClient={queryClient} i18n={i18n}>
      <SkipLink />
      <AppRouter />
    </AppProvider>
  );
}
