import { ArchiveIcon } from 'lucide-react';
import { Suspense } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Breakable } from '@/components/ui/breakable';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatMoment } from '@/lib/format-date';
import { useSettingsTexts } from '@/lib/use-group-texts';
import { useBackupStatus } from '../api/queries';

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** The schedule of PORTICO_BACKUP_DIR and how the last run went (docs/OPERATIONS.md, backups). */
function BackupStatus() {
  const { t, i18n } = useSettingsTexts();
  const { data, isPending, isError } = useBackupStatus();
  if (isPending) return <Skeleton className="h-10 w-full" />;
  if (isError) {
    return (
      <Alert variant="destructive">
        <AlertDescription>{t('settings.backups.loadFailed')}</AlertDescription>
      </Alert>
    );
  }
  const { schedule, last } = data;
  const when = last ? (formatMoment(last.finishedAt, i18n.language) ?? '') : '';
  return (
    <div className="grid gap-2 text-sm">
      {schedule ? (
        <p data-testid="admin-backup-schedule">
          <Breakable
            text={t('settings.backups.schedule', {
              time: schedule.time,
              dir: schedule.dir,
              keep: schedule.keep,
            })}
          />{' '}
          {t(schedule.encrypted ? 'settings.backups.encrypted' : 'settings.backups.notEncrypted')}
        </p>
      ) : (
        <p className="text-muted-foreground" data-testid="admin-backup-schedule">
          {t('settings.backups.notConfigured')}
        </p>
      )}
      {!last ? (
        schedule && <p className="text-muted-foreground">{t('settings.backups.never')}</p>
      ) : last.ok ? (
        <p data-testid="admin-backup-last" data-ok="true">
          <Breakable
            text={t('settings.backups.lastOk', {
              when,
              file: last.file ?? '',
              size: size(last.bytes ?? 0),
            })}
          />
        </p>
      ) : (
        <Alert variant="destructive" data-testid="admin-backup-last" data-ok="false">
          <AlertDescription>
            <Breakable text={t('settings.backups.lastFailed', { when, error: last.error ?? '' })} />
          </AlertDescription>
        </Alert>
      )}
    </div>
  );
}

function BackupTitle() {
  const { t } = useSettingsTexts();
  return <CardTitle>{t('settings.backups.title')}</CardTitle>;
}

/** Admins only (AdminSection); its texts come with the settings group, loaded when it shows. */
export function BackupCard() {
  return (
    <Card data-testid="admin-backups">
      <Suspense fallback={<Skeleton className="h-16 w-full" />}>
        <CardHeader>
          <div className="flex items-center gap-2">
            <ArchiveIcon className="size-5 text-primary" aria-hidden="true" />
            <BackupTitle />
          </div>
        </CardHeader>
        <CardContent>
          <BackupStatus />
        </CardContent>
      </Suspense>
    </Card>
  );
}
