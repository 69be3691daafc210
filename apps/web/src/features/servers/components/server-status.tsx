import type { TSshServer } from '@portico/shared/ssh-servers/schemas';
import { Badge } from '@/components/ui/badge';
import { formatRelative } from '@/lib/format-date';
import { useServersTexts } from '@/lib/use-group-texts';

/** Reachable or not at the last check, and when that was. */
export function ServerStatus({
  server,
}: {
  server: Pick<TSshServer, 'reachable' | 'lastCheckedAt'>;
}) {
  const { t, i18n } = useServersTexts();
  const when = formatRelative(server.lastCheckedAt, i18n.resolvedLanguage ?? 'es');
  if (server.reachable === null || !when) {
    return (
      <Badge variant="secondary" data-testid="server-status">
        {t('servers.status.unchecked')}
      </Badge>
    );
  }
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
      <Badge variant={server.reachable ? 'success' : 'destructive'} data-testid="server-status">
        {t(server.reachable ? 'servers.status.reachable' : 'servers.status.unreachable')}
      </Badge>
      <span className="text-xs text-muted-foreground">
        {t('servers.status.checkedAt', { date: when })}
      </span>
    </span>
  );
}
