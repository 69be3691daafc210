import type { TPublicUser } from '@portico/shared/auth/schemas';
import type * as React from 'react';
import { Suspense } from 'react';
import { useLocation } from 'wouter';
import { ErrorBoundary, ScreenFailed } from '@/components/layout/error-boundary';
import { Footer } from '@/components/layout/footer';
import { Header, type THeaderBack } from '@/components/layout/header';
import { PageSpinner } from '@/components/layout/page-spinner';
import { useLogout } from '@/features/auth/api/logout';
import { useLanguageSync } from '@/lib/use-language-sync';

/**
 * The signed-in frame: header with the user and logout, the page, the footer. Screens are
 * fetched on first use (app/lazy-routes.ts); meanwhile a spinner fills the main area and the
 * header and footer stay where they are. A screen that fails says so there, header still usable.
 */
export function AppLayout({
  user,
  back,
  children,
}: {
  user: TPublicUser;
  back?: THeaderBack;
  children: React.ReactNode;
}) {
  const logout = useLogout();
  useLanguageSync(user.id);
  const [location] = useLocation();
  return (
    <div className="flex min-h-dvh flex-col">
      <Header
        user={user}
        back={back}
        onLogout={() => logout.mutate()}
        loggingOut={logout.isPending}
      />
      <main id="main" className="flex flex-1 flex-col">
        <ErrorBoundary resetKey={location} fallback={<ScreenFailed />}>
          <Suspense fallback={<PageSpinner within="main" />}>{children}</Suspense>
        </ErrorBoundary>
      </main>
      <Footer />
    </div>
  );
}

/** The signed-out frame for screens other than the landing page. */
export function PublicLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <Header />
      <main id="main" className="flex flex-1 flex-col">
        {children}
      </main>
      <Footer />
    </div>
  );
}
