import { Route, Switch } from 'wouter';
import { PageSpinner } from '@/components/layout/page-spinner';
import { ADMIN_ROUTES, AdminSection, isAdmin } from '@/features/admin/components/admin-section';
import { AuditPage } from '@/features/admin/components/audit-page';
import { CertificatesPage } from '@/features/admin/components/certificates-page';
import { DestinationsPage } from '@/features/admin/components/destinations-page';
import { UsersPage } from '@/features/admin/components/users-page';
import { useUser } from '@/features/auth/api/get-user';
import { LandingPage } from '@/features/auth/components/landing-page';
import { HomePage } from '@/features/home/components/home-page';
import { EditProxyDialog } from '@/features/proxies/components/edit-proxy-dialog';
import { ProxyDetailsPage } from '@/features/proxies/components/proxy-details-page';
import { ProxyList } from '@/features/proxies/components/proxy-list';
import { SettingsPage } from '@/features/settings/components/settings-page';
import { TwoFactorRequiredPage } from '@/features/settings/components/two-factor-required-page';
import { ProxyWizardPage } from '@/features/wizard/components/proxy-wizard-page';
import { AppLayout, PublicLayout } from './layout';
import { NotFound } from './routes/not-found';

/** Spec §2: signed out only / (landing); signed in / and /home; anything else is not found. */
export function AppRouter() {
  const { data: user, isPending } = useUser();

  if (isPending) return <PageSpinner />;

  if (!user) {
    return (
      <Switch>
        <Route path="/" component={LandingPage} />
        <Route>
          <PublicLayout>
            <NotFound signedIn={false} />
          </PublicLayout>
        </Route>
      </Switch>
    );
  }

  // PORTICO_REQUIRE_2FA holds this account: the server refuses all else until it is set up.
  if (user.twoFactorSetupRequired) {
    return (
      <AppLayout user={user}>
        <TwoFactorRequiredPage user={user} />
      </AppLayout>
    );
  }

  // Admins also get the admin dashboard under their own list (spec §2); users never see it.
  const homeLists = (
    <>
      <ProxyList />
      <AdminSection
        user={user}
        renderEdit={(props) => <EditProxyDialog mode="admin" {...props} />}
      />
    </>
  );
  const admin = isAdmin(user);

  return (
    <AppLayout user={user}>
      <Switch>
        <Route path="/">
          <HomePage user={user} proxies={homeLists} />
        </Route>
        <Route path="/home">
          <HomePage user={user} proxies={homeLists} />
        </Route>
        <Route path="/proxy-details/:id">{({ id }) => <ProxyDetailsPage key={id} id={id} />}</Route>
        <Route path="/proxy-wizard" component={ProxyWizardPage} />
        <Route path="/settings">
          <SettingsPage user={user} />
        </Route>
        {admin ? <Route path={ADMIN_ROUTES.audit} component={AuditPage} /> : null}
        {admin ? (
          <Route path={ADMIN_ROUTES.users}>
            <UsersPage currentUser={user} />
          </Route>
        ) : null}
        {admin ? <Route path={ADMIN_ROUTES.destinations} component={DestinationsPage} /> : null}
        {admin ? <Route path={ADMIN_ROUTES.certificates} component={CertificatesPage} /> : null}
        <Route>
          <NotFound signedIn />
        </Route>
      </Switch>
    </AppLayout>
  );
}
