import type { TPublicUser } from '@portico/shared/auth/schemas';
import { ArrowRightIcon, ListIcon, PlusIcon, ShieldCheckIcon, ZapIcon } from 'lucide-react';
import type * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

const WIZARD_HREF = '/proxy-wizard';
const PROXY_LIST_ANCHOR = 'proxies';

type TProps = {
  user: TPublicUser;
  /** The proxy list, composed by the app layer (features do not import each other). */
  proxies?: React.ReactNode;
  /** The user has no proxy: the create card is then the one call to create one. */
  empty?: boolean;
};

/**
 * Home: welcome (first name, else username), the create card, quick actions once there is a
 * proxy, the list.
 */
export function HomePage({ user, proxies, empty = false }: TProps) {
  const { t } = useTranslation();
  const name = user.firstName?.trim() || user.username;

  const viewAll = (event: React.MouseEvent<HTMLAnchorElement>) => {
    const target = document.getElementById(PROXY_LIST_ANCHOR);
    if (!target) return;
    event.preventDefault();
    target.scrollIntoView({ behavior: 'smooth', block: 'start' });
    target.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
  };

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-8 px-4 py-8 sm:px-6 sm:py-12">
      <div>
        <h1
          className="text-2xl font-bold tracking-tight [overflow-wrap:anywhere] sm:text-3xl"
          data-testid="welcome-heading"
        >
          {t('home.welcome', { name })}
        </h1>
        <p className="mt-2 text-muted-foreground">{t('home.subtitle')}</p>
      </div>

      <div className={empty ? 'grid gap-4' : 'grid gap-4 md:grid-cols-[2fr_1fr]'}>
        <Card className="relative overflow-hidden border-indigo-200 bg-primary-soft">
          <CardHeader>
            <div className="flex items-center gap-2 text-primary">
              <ShieldCheckIcon className="size-5" aria-hidden="true" />
              <CardTitle>{t('home.create.title')}</CardTitle>
            </div>
            <CardDescription className="text-foreground/80">
              {t('home.create.description')}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild data-testid="create-proxy">
              <Link href={WIZARD_HREF}>
                <PlusIcon aria-hidden="true" />
                {t('home.create.action')}
                <ArrowRightIcon aria-hidden="true" />
              </Link>
            </Button>
          </CardContent>
        </Card>
        {/* Quick actions are shortcuts into a list: none while it is empty. */}
        {empty ? null : (
          <Card>
            <CardHeader>
              <div className="flex items-center gap-2">
                <ZapIcon className="size-5 text-primary" aria-hidden="true" />
                <CardTitle>{t('home.quickActions.title')}</CardTitle>
              </div>
            </CardHeader>
            <CardContent className="grid gap-2">
              <Button
                asChild
                variant="outline"
                className="justify-start"
                data-testid="quick-create"
              >
                <Link href={WIZARD_HREF}>
                  <PlusIcon aria-hidden="true" />
                  {t('home.quickActions.create')}
                </Link>
              </Button>
              <Button
                asChild
                variant="outline"
                className="justify-start"
                data-testid="quick-view-all"
              >
                <a href={`#${PROXY_LIST_ANCHOR}`} onClick={viewAll}>
                  <ListIcon aria-hidden="true" />
                  {t('home.quickActions.viewAll')}
                </a>
              </Button>
            </CardContent>
          </Card>
        )}
      </div>

      {proxies}
    </div>
  );
}
