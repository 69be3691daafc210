import type { TPublicUser } from '@portico/shared/auth/schemas';
import { useTranslation } from 'react-i18next';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { initials } from '@/lib/utils';

/** Signed-in home: the welcome line (first name, else username). The dashboard comes later. */
export function HomePage({ user }: { user: TPublicUser }) {
  const { t } = useTranslation();
  const name = user.firstName?.trim() || user.username;
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 sm:py-12">
      <h1
        className="text-2xl font-bold tracking-tight break-words sm:text-3xl"
        data-testid="welcome-heading"
      >
        {t('home.welcome', { name })}
      </h1>
      <p className="mt-2 text-muted-foreground">{t('home.subtitle')}</p>
      <Card className="mt-8 max-w-xl">
        <CardHeader className="flex-row items-center gap-4">
          <Avatar className="size-12">
            <AvatarFallback className="text-base" aria-hidden="true">
              {initials(user)}
            </AvatarFallback>
          </Avatar>
          <CardTitle>{t('home.profileTitle')}</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3 text-sm sm:grid-cols-[8rem_1fr]">
            <dt className="text-muted-foreground">{t('home.username')}</dt>
            <dd className="font-medium break-all">{user.username}</dd>
            <dt className="text-muted-foreground">{t('home.email')}</dt>
            <dd className="font-medium break-all">{user.email}</dd>
            <dt className="text-muted-foreground">{t('home.role')}</dt>
            <dd>
              <Badge variant={user.role === 'admin' ? 'default' : 'secondary'}>
                {t(`home.roles.${user.role}`)}
              </Badge>
            </dd>
          </dl>
        </CardContent>
      </Card>
    </div>
  );
}
