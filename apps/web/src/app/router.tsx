import * as React from 'react';
import { Route, Switch } from 'wouter';
import { ScreenFailed } from '@/components/layout/error-boundary';
import { PageSpinner } from '@/components/layout/page-spinner';
import { ADMIN_ROUTES, isAdmin } from '@/features/admin/lib/access';
import { LandingPage } from '@/features/auth/components/landing-page';
import { useUser } from '@/lib/current-user';
import { AppLayout, PublicLayout } from './layout';
import {
  AuditPage,
  CertificatesPage,
  DestinationsPage,
  HomeRoute,
  ProxyDetailsPage,
  ProxyWizardPage,
  ServerPage,
  ServersPage,
  SettingsPage,
  TwoFactorRequiredPage,
  UsersPage,
} from './lazy-routes';
import { NotFound } from './routes/not-found';

/**
 * The pages of a signed-in user. Signed out, their addresses show the sign-in card instead of
 * "not found", and keep the address: once signed in, the router shows the page asked for. What
 * that user may not see still answers not found then (another user's proxy, admin pages).
 */
const SIGNED_IN_PATHS = [
  '/home',
  '/proxy-wizard',
  '/proxy-details/:id',
  '/settings',
  '/servers',
  '/servers/:id',
  ...Object.values(ADMIN_ROUTES),
] as const;

/**
 * Signed out: / is the landing page, and the address of a signed-in page shows the sign-in card
 * (then that page once signed in). Signed in: / and /home are home. Anything else is not found.
 */
export function AppRouter() {
  const { data: user, isPending, isError, isFetching, failureCount, refetch } = useUser();
  // Signed in earlier in this page's life: a sign-in card now means the session ended.
  const hadUser = React.useRef(false);
  if (user) hadUser.current = true;

  if (isPending && failureCount === 0) return <PageSpinner />;
  // No answer to "who is signed in" (it is tried again first): not the landing page, which
  // would tell a signed-in user they are signed out.
  if (user === undefined && (isError || failureCount > 0)) {
    return (
      <PublicLayout>
        {isFetching ? <PageSpinner within="main" /> : <ScreenFailed onRetry={() => refetch()} />}
      </PublicLayout>
    );
  }

  if (!user) {
    const notice = hadUser.current ? 'expired' : 'signedOut';
    return (
      <Switch>
        <Route path="/">
          <LandingPage />
        </Route>
        {SIGNED_IN_PATHS.map((path) => (
          <Route key={path} path={path}>
            <LandingPage notice={notice} />
          </Route>
        ))}
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

  const admin = isAdmin(user);

  return (
    <AppLayout user={user}>
      <Switch>
        <Route path="/">
          <HomeRoute user={user} />
        </Route>
        <Route path="/home">
          <HomeRoute user={user} />
        </Route>
        <Route path="/proxy-details/:id">{({ id }) => <ProxyDetailsPage key={id} id={id} />}</Route>
        <Route path="/proxy-wizard" component={ProxyWizardPage} />
        <Route path="/servers">
          <ServersPage admin={admin} />
        </Route>
        <Route path="/servers/:id">
          {({ id }) => <ServerPage key={id} id={id} userId={user.id} />}
        </Route>
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
