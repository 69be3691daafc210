import type { TSessionInfo } from '@portico/shared/auth/account';
import { MonitorIcon } from 'lucide-react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { toastFailure } from '@/lib/toast-outcome';
import { useSettingsTexts } from '@/lib/use-group-texts';
import { useEndOtherSessions, useEndSession, useSessions } from '../api/account';
import { formatDate } from '../lib/format';

function SessionRow({ session }: { session: TSessionInfo }) {
  const { t, i18n } = useSettingsTexts();
  const end = useEndSession();
  const device =
    [session.browser, session.os].filter(Boolean).join(' · ') ||
    t('settings.sessions.unknownDevice');
  const onEnd = async () => {
    try {
      await end.mutateAsync(session.id);
      toast({ title: t('settings.sessions.ended') });
    } catch (error) {
      toastFailure(error, t, t('settings.sessions.endFailed'));
    }
  };
  return (
    <li
      className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-border p-4"
      data-testid="session-row"
      data-current={session.current}
    >
      <div className="flex min-w-0 gap-3">
        <MonitorIcon className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
        <div className="grid min-w-0 gap-1 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium" data-testid="session-device">
              {device}
            </span>
            {session.current ? <Badge>{t('settings.sessions.thisOne')}</Badge> : null}
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-muted-foreground">
            <dt>{t('settings.sessions.address')}</dt>
            <dd className="break-all">{session.ip ?? t('settings.sessions.unknown')}</dd>
            <dt>{t('settings.sessions.signedIn')}</dt>
            <dd>
              {formatDate(session.signedInAt, i18n.language) || t('settings.sessions.unknown')}
            </dd>
            <dt>{t('settings.sessions.lastSeen')}</dt>
            <dd>
              {formatDate(session.lastSeenAt, i18n.language) || t('settings.sessions.unknown')}
            </dd>
          </dl>
        </div>
      </div>
      {session.current ? null : (
        <Button
          type="button"
          size="sm"
          variant="outline"
          onClick={onEnd}
          disabled={end.isPending}
          data-testid="session-end"
        >
          {t('settings.sessions.end')}
          <span className="sr-only"> {device}</span>
        </Button>
      )}
    </li>
  );
}

/** Where the account is signed in; end one session, or every one but this. */
export function SessionsSection() {
  const { t } = useSettingsTexts();
  const sessions = useSessions();
  const endOthers = useEndOtherSessions();
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;

  const onEndOthers = async () => {
    try {
      const { ended } = await endOthers.mutateAsync();
      toast({ title: t('settings.sessions.endedOthers', { count: ended }) });
    } catch (error) {
      toastFailure(error, t, t('settings.sessions.endFailed'));
    }
  };

  if (sessions.isPending) return <Skeleton className="h-24 w-full" />;
  if (sessions.isError) {
    return (
      <Alert variant="destructive">
        <AlertDescription>{t('settings.loadFailed')}</AlertDescription>
      </Alert>
    );
  }
  return (
    <div className="grid gap-4">
      <ul className="grid gap-3" aria-label={t('settings.sessions.listLabel')}>
        {sessions.data!.map((session) => (
          <SessionRow key={session.id} session={session} />
        ))}
      </ul>
      <div>
        <Button
          type="button"
          variant="outline"
          onClick={onEndOthers}
          disabled={others === 0 || endOthers.isPending}
          data-testid="sessions-end-others"
        >
          {t('settings.sessions.endOthers')}
        </Button>
      </div>
    </div>
  );
}
