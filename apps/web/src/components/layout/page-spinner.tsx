import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';

/**
 * Centred spinner while something whole loads: the page (the session check, before any frame)
 * or, inside the frame, a screen's code (`within="main"`: it fills the main area under the
 * header, so header and footer stay where they are). It fades in after a short delay, so a fast
 * load shows nothing at all.
 */
export function PageSpinner({ within = 'page' }: { within?: 'page' | 'main' }) {
  const { t } = useTranslation();
  return (
    <div
      className={cn(
        'flex animate-delayed-fade-in items-center justify-center',
        within === 'page' ? 'min-h-dvh' : 'flex-1 py-16',
      )}
      data-testid={within === 'page' ? 'page-spinner' : 'route-loading'}
    >
      <Spinner className="size-8" label={t('common.loading')} />
    </div>
  );
}
