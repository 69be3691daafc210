import { ArrowLeftIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';

/** Unknown path: a link home when signed in, else to the landing page. */
export function NotFound({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation();
  return (
    <div
      className="mx-auto flex w-full max-w-md flex-1 flex-col items-center justify-center px-4 py-16 text-center"
      data-testid="not-found"
    >
      <p className="text-sm font-semibold tracking-widest text-primary">{t('notFound.code')}</p>
      <h1 className="mt-2 text-2xl font-bold tracking-tight sm:text-3xl">{t('notFound.title')}</h1>
      <p className="mt-3 text-muted-foreground">{t('notFound.description')}</p>
      <Button asChild className="mt-8">
        <Link href="/">
          <ArrowLeftIcon aria-hidden="true" />
          {signedIn ? t('notFound.goHome') : t('notFound.goLanding')}
        </Link>
      </Button>
    </div>
  );
}
