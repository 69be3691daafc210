import type { TPublicUser } from '@portico/shared/auth/schemas';
import { HistoryIcon, ServerIcon, ShieldAlertIcon, ShieldIcon, UsersIcon } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { useAdminTexts } from '@/lib/use-group-texts';
import { ADMIN_ROUTES, isAdmin } from '../lib/access';
import type { TRenderAdminEdit } from './admin-edit';
import { ProxiesByUserCard, TotalUsersCard } from './admin-stats';
import { AllProxies } from './all-proxies';
import { BackupCard } from './backup-card';

const ADMIN_LINKS = [
  { key: 'audit', Icon: HistoryIcon },
  { key: 'users', Icon: UsersIcon },
  { key: 'destinations', Icon: ServerIcon },
  { key: 'certificates', Icon: ShieldAlertIcon },
] as const;

/** The admin dashboard inside home (docs/PRODUCT.md#admin-screens); rendered only for admins. */
export function AdminSection({
  user,
  renderEdit,
}: {
  user: Pick<TPublicUser, 'role'>;
  renderEdit: TRenderAdminEdit;
}) {
  const { t } = useAdminTexts();
  if (!isAdmin(user)) return null;
  return (
    <section
      aria-labelledby="admin-heading"
      className="grid min-w-0 gap-4"
      data-testid="admin-section"
    >
      <div>
        <h2
          id="admin-heading"
          className="flex items-center gap-2 text-xl font-semibold tracking-tight"
        >
          <ShieldIcon className="size-5 text-primary" aria-hidden="true" />
          {t('admin.title')}
        </h2>
        <p className="mt-1 text-muted-foreground">{t('admin.subtitle')}</p>
      </div>
      <nav aria-label={t('admin.nav.label')} className="flex flex-wrap gap-2">
        {ADMIN_LINKS.map(({ key, Icon }) => (
          <Button key={key} asChild variant="outline" size="sm">
            <Link href={ADMIN_ROUTES[key]} data-testid={`admin-link-${key}`}>
              <Icon aria-hidden="true" />
              {t(`admin.nav.${key}`)}
            </Link>
          </Button>
        ))}
      </nav>
      <div className="grid min-w-0 gap-4 md:grid-cols-[1fr_2fr]">
        <TotalUsersCard />
        <ProxiesByUserCard />
      </div>
      <BackupCard />
      <AllProxies renderEdit={renderEdit} />
    </section>
  );
}
