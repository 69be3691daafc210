import type { TPublicUser } from '@portico/shared/auth/schemas';
import type * as React from 'react';
import { Footer } from '@/components/layout/footer';
import { Header, type THeaderBack } from '@/components/layout/header';
import { useLogout } from '@/features/auth/api/logout';
import { useLanguageSync } from '@/lib/use-language-sync';

/** The signed-in frame: header with the user and logout, the page, the footer. */
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
  return (
    <div className="flex min-h-dvh flex-col">
      <Header
        user={user}
        back={back}
        onLogout={() => logout.mutate()}
        loggingOut={logout.isPending}
      />
      <main id="main" className="flex flex-1 flex-col">
        {children}
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
