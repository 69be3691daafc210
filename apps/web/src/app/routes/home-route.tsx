import type { TPublicUser } from '@portico/shared/auth/schemas';
import { AdminSection } from '@/features/admin/components/admin-section';
import { HomePage } from '@/features/home/components/home-page';
import { useProxyTotal } from '@/features/proxies/api/get-proxies';
import { EditProxyDialog } from '@/features/proxies/components/edit-proxy-dialog';
import { ProxyList } from '@/features/proxies/components/proxy-list';

/**
 * The signed-in home: the user's proxy list and, for admins, the admin dashboard first (what an
 * admin comes for; their own list is often empty). The app layer composes them here (features do
 * not import each other), in one module so the whole screen is one chunk, fetched at once.
 */
export function HomeRoute({ user }: { user: TPublicUser }) {
  // Without a proxy the create card is the one call to create one.
  const empty = useProxyTotal().data === 0;
  const admin = (
    <AdminSection user={user} renderEdit={(props) => <EditProxyDialog mode="admin" {...props} />} />
  );
  const lists =
    user.role === 'admin' ? (
      <>
        {admin}
        <ProxyList />
      </>
    ) : (
      <ProxyList />
    );
  return <HomePage user={user} proxies={lists} empty={empty} />;
}
