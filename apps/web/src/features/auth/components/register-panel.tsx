import { LockIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuthOptions } from '../api/get-auth-options';
import { RegisterForm } from './register-form';

/** The register tab: the form, or an explanation when this Portico has registration closed. */
export function RegisterPanel({ onGoToLogin }: { onGoToLogin: () => void }) {
  const { t } = useTranslation();
  const options = useAuthOptions();

  if (options.isPending) {
    return (
      <div className="grid gap-4" aria-busy="true">
        <Skeleton className="h-16" />
        <Skeleton className="h-16" />
        <Skeleton className="h-16" />
      </div>
    );
  }
  // If the options cannot be read, show the form: the server still refuses when closed.
  if (options.data?.registration !== 'closed') return <RegisterForm />;

  return (
    <div
      className="flex flex-col items-center gap-3 rounded-md border border-border bg-muted px-4 py-8 text-center"
      data-testid="registration-closed"
    >
      <span className="flex size-10 items-center justify-center rounded-full bg-background text-muted-foreground shadow-sm">
        <LockIcon className="size-5" aria-hidden="true" />
      </span>
      <h3 className="text-base font-semibold">{t('landing.register.closedTitle')}</h3>
      <p className="max-w-sm text-sm text-muted-foreground">
        {t('landing.register.closedDescription')}
      </p>
      <Button variant="outline" size="sm" onClick={onGoToLogin}>
        {t('landing.tabs.login')}
      </Button>
    </div>
  );
}
