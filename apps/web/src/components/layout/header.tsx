import type { TPublicUser } from '@portico/shared/auth/schemas';
import { ArrowLeftIcon, ChevronDownIcon, LogOutIcon } from 'lucide-react';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import { BusyButton } from '@/components/ui/busy-button';
import { Button } from '@/components/ui/button';
import { httpUrlOrUndefined } from '@/lib/safe-url';
import { initials } from '@/lib/utils';
import { DeferredMenu } from './deferred-menu';
import { LanguageSwitcher } from './language-switcher';
import { Logo } from './logo';

export type THeaderBack = {
  /** Where the back button goes. */
  href: string;
  /** Custom text; defaults to "Back". */
  label?: string;
};

type THeaderProps = {
  /** The signed-in user; without one the header shows only the logo and language switcher. */
  user?: TPublicUser | null;
  onLogout?: () => void;
  loggingOut?: boolean;
  back?: THeaderBack;
  /** Where the logo links to. */
  homeHref?: string;
};

function UserSummary({ user }: { user: TPublicUser }) {
  const avatarUrl = httpUrlOrUndefined(user.profileImageUrl);
  return (
    <div className="flex min-w-0 items-center gap-2.5" data-testid="header-user">
      <Avatar className="size-9">
        {avatarUrl ? <AvatarImage src={avatarUrl} alt="" /> : null}
        <AvatarFallback aria-hidden="true">{initials(user)}</AvatarFallback>
      </Avatar>
      <div className="grid min-w-0 max-w-[7.5rem] leading-tight sm:max-w-[14rem]">
        <span className="truncate text-sm font-medium" data-testid="header-username">
          {user.username}
        </span>
        <span className="truncate text-xs text-muted-foreground" data-testid="header-email">
          {user.email}
        </span>
      </div>
    </div>
  );
}

const loadUserMenu = () => import('./user-menu');
const UserMenu = React.lazy(async () => ({ default: (await loadUserMenu()).UserMenu }));

function UserMenuButton({
  user,
  ...props
}: React.ComponentProps<'button'> & { user: TPublicUser }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="flex min-w-0 items-center gap-1 rounded-md p-1 hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      aria-label={t('header.menu', { username: user.username })}
      aria-haspopup="menu"
      aria-expanded={false}
      data-testid="user-menu"
      {...props}
    >
      <UserSummary user={user} />
      <ChevronDownIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
    </button>
  );
}

/** The user, as the trigger of their menu; the menu's code comes on demand (DeferredMenu). */
function HeaderUserMenu({ user }: { user: TPublicUser }) {
  return (
    <DeferredMenu
      load={loadUserMenu}
      renderButton={(props) => <UserMenuButton user={user} {...props} />}
      renderMenu={(trigger) => <UserMenu trigger={trigger} />}
    />
  );
}

export function Header({ user, onLogout, loggingOut = false, back, homeHref = '/' }: THeaderProps) {
  const { t } = useTranslation();
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-3 sm:gap-4 sm:px-6">
        <Link
          href={homeHref}
          className="rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
          aria-label={t('common.appName')}
        >
          <Logo hideNameOnMobile={Boolean(user)} />
        </Link>
        {back ? (
          <Button variant="ghost" size="sm" asChild className="px-2 sm:px-3">
            <Link href={back.href} data-testid="header-back">
              <ArrowLeftIcon aria-hidden="true" />
              <span className="sr-only sm:not-sr-only">{back.label ?? t('common.back')}</span>
            </Link>
          </Button>
        ) : null}
        <div className="ml-auto flex min-w-0 items-center gap-1.5 sm:gap-3">
          <LanguageSwitcher />
          {user ? (
            <>
              <HeaderUserMenu user={user} />
              <BusyButton
                busy={loggingOut}
                icon={<LogOutIcon aria-hidden="true" />}
                variant="outline"
                size="sm"
                className="px-2 sm:px-3"
                onClick={onLogout}
                data-testid="logout-button"
              >
                <span className="sr-only sm:not-sr-only">{t('header.logout')}</span>
              </BusyButton>
            </>
          ) : null}
        </div>
      </div>
    </header>
  );
}
