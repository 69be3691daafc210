import { CheckCircle2Icon, LogInIcon, ShieldCheckIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Footer } from '@/components/layout/footer';
import { Header } from '@/components/layout/header';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useInertUntilHydrated } from '@/hooks/use-hydrated';
import { LoginForm } from './login-form';
import { RegisterPanel } from './register-panel';

type TTab = 'login' | 'register';
const FEATURES = ['guided', 'certificates', 'logs'] as const;

/**
 * Why the landing page stands where a signed-in page was asked for: a link opened while signed
 * out, or a session that ended while in use. The address stays, so signing in shows that page.
 */
type TSignInNotice = 'signedOut' | 'expired';

/** The signed-out page: title, description, and a card with login/register tabs. */
export function LandingPage({ notice }: { notice?: TSignInNotice }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<TTab>('login');
  const inert = useInertUntilHydrated();
  return (
    <div className="flex min-h-dvh flex-col">
      <Header />
      <main
        id="main"
        className="mx-auto grid w-full max-w-6xl flex-1 items-center gap-8 px-4 py-8 sm:gap-10 sm:px-6 md:py-16 lg:grid-cols-[1fr_28rem] lg:gap-16"
      >
        <section aria-labelledby="landing-title" className="max-w-xl">
          <p className="mb-4 inline-flex items-center gap-1.5 rounded-full border border-indigo-200 bg-primary-soft px-3 py-1 text-xs font-medium text-primary">
            <ShieldCheckIcon className="size-3.5" aria-hidden="true" />
            {t('landing.eyebrow')}
          </p>
          <h1
            id="landing-title"
            className="text-3xl font-bold tracking-tight text-foreground sm:text-4xl lg:text-5xl"
          >
            {t('landing.title')}
          </h1>
          <p className="mt-4 text-base text-muted-foreground sm:text-lg">
            {t('landing.description')}
          </p>
          <ul className="mt-8 hidden gap-3 sm:grid">
            {FEATURES.map((key) => (
              <li key={key} className="flex items-start gap-3 text-sm text-foreground">
                <CheckCircle2Icon
                  className="mt-0.5 size-5 shrink-0 text-primary"
                  aria-hidden="true"
                />
                <span>{t(`landing.features.${key}`)}</span>
              </li>
            ))}
          </ul>
        </section>
        <Card className="w-full">
          <CardHeader>
            <CardTitle>{t('landing.cardTitle')}</CardTitle>
            <CardDescription>{t('landing.cardDescription')}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            {notice ? (
              <Alert variant="info" data-testid="sign-in-notice" data-notice={notice}>
                <LogInIcon aria-hidden="true" />
                <AlertDescription>{t(`landing.notice.${notice}`)}</AlertDescription>
              </Alert>
            ) : null}
            <Tabs value={tab} onValueChange={(v) => setTab(v as TTab)}>
              <TabsList className="grid w-full grid-cols-2">
                <TabsTrigger value="login" data-testid="tab-login" {...inert}>
                  {t('landing.tabs.login')}
                </TabsTrigger>
                <TabsTrigger value="register" data-testid="tab-register" {...inert}>
                  {t('landing.tabs.register')}
                </TabsTrigger>
              </TabsList>
              <TabsContent value="login">
                <LoginForm />
              </TabsContent>
              <TabsContent value="register">
                <RegisterPanel onGoToLogin={() => setTab('login')} />
              </TabsContent>
            </Tabs>
          </CardContent>
        </Card>
      </main>
      <Footer />
    </div>
  );
}
