import { Route, Switch } from 'wouter';
import { PageSpinner } from '@/components/layout/page-spinner';
import { useUser } from '@/features/auth/api/get-user';
import { LandingPage } from '@/features/auth/components/landing-page';
import { HomePage } from '@/features/home/components/home-page';
import { ProxyDetailsPage } from '@/features/proxies/components/proxy-details-page';
import { ProxyList } from '@/features/proxies/components/proxy-list';
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

  return (
    <AppLayout user={user}>
      <Switch>
        <Route path="/">
          <HomePage user={user} proxies={<ProxyList />} />
        </Route>
        <Route path="/home">
          <HomePage user={user} proxies={<ProxyList />} />
        </Route>
        <Route path="/proxy-details/:id">{({ id }) => <ProxyDetailsPage key={id} id={id} />}</Route>
        <Route path="/proxy-wizard" component={ProxyWizardPage} />
        <Route>
          <NotFound signedIn />
        </Route>
      </Switch>
    </AppLayout>
  );
}
