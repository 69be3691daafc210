import type { TPublicUser } from '@portico/shared/auth/schemas';
import { AdminSection } from '@/features/admin/components/admin-section';
import { HomePage } from '@/features/home/components/home-page';
import { EditProxyDialog } from '@/features/proxies/components/edit-proxy-dialog';
import { ProxyList } from '@/features/proxies/components/proxy-list';

/**
 * The signed-in home: the user's proxy list and, for admins, the admin dashboard under it. The
 * app layer composes them here (features do not import each other), in one module so the whole
 * screen is one chunk, fetched at once.
 */
export function HomeRoute({ user }: { user: TPublicUser }) {
  const lists = (
    <>
      <ProxyList />
      <AdminSection
        user={user}
        renderEdit={(props) => <EditProxyDialog mode="admin" {...props} />}
      />
    </>
  );
  return <HomePage user={user} proxies={lists} />;
}
