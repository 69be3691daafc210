import type { TDestinationServer } from '@portico/shared/proxy/api';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { isSelectable } from '../state/destination';

const STATUS_BADGE = { online: 'success', offline: 'destructive', unknown: 'outline' } as const;

export function DestinationOption({
  server,
  checked,
  onSelect,
}: {
  server: TDestinationServer;
  checked: boolean;
  onSelect: () => void;
}) {
  const { t } = useTranslation();
  const selectable = isSelectable(server);
  const id = `wizard-destination-${server.id}`;
  const note = selectable
    ? null
    : server.maintenanceNote ||
      t(server.isActive ? 'wizard.destination.offlineNote' : 'wizard.destination.inactiveNote');
  return (
    <label
      htmlFor={id}
      className={cn(
        'flex gap-3 rounded-lg border p-4 transition-colors focus-within:ring-2 focus-within:ring-ring',
        checked ? 'border-primary bg-primary-soft' : 'border-border',
        selectable ? 'cursor-pointer hover:bg-accent/60' : 'cursor-not-allowed opacity-70',
      )}
      data-testid="wizard-destination-option"
    >
      <input
        id={id}
        type="radio"
        name="wizard-destination"
        value={server.id}
        checked={checked}
        disabled={!selectable}
        onChange={onSelect}
        aria-describedby={`${id}-details`}
        className="mt-1 size-4 shrink-0 accent-primary"
      />
      {/* Admin free text (names, descriptions) may be one long word: wrap it, never widen the page. */}
      <span className="grid min-w-0 flex-1 gap-1 [overflow-wrap:anywhere]">
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{server.name}</span>
          <Badge variant={STATUS_BADGE[server.status]}>
            {t(`wizard.destination.status.${server.status}`)}
          </Badge>
          {server.isActive ? null : (
            <Badge variant="outline">{t('wizard.destination.inactive')}</Badge>
          )}
        </span>
        <span id={`${id}-details`} className="grid gap-1 text-sm text-muted-foreground">
          <span className="font-mono text-xs break-all">{server.endpoint}</span>
          {server.description ? <span>{server.description}</span> : null}
          {server.latency !== null || server.load ? (
            <span className="text-xs">
              {server.latency !== null
                ? t('wizard.destination.latency', { ms: server.latency })
                : null}
              {server.latency !== null && server.load ? ' · ' : null}
              {server.load ? t('wizard.destination.load', { load: server.load }) : null}
            </span>
          ) : null}
          {note ? <span className="text-xs font-medium text-warning">{note}</span> : null}
        </span>
      </span>
    </label>
  );
}
