import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/spinner';

/** Centred spinner for whole-page loading (e.g. while the session is checked). */
export function PageSpinner() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh items-center justify-center" data-testid="page-spinner">
      <Spinner className="size-8" label={t('common.loading')} />
    </div>
  );
}
