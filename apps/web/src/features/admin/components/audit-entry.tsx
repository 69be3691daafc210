import type { TAuditEntry } from '@portico/shared/admin/api';
import { ArrowRightIcon } from 'lucide-react';
import { formatDateTime, formatRelative } from '@/lib/format-date';
import { useAdminTexts } from '@/lib/use-group-texts';
import { auditActionText, auditFieldText, auditTargetText, auditValueText } from '../lib/audit';

/** One audit row: when, who, what in plain words, on what, and each field before → after. */
export function AuditEntry({ entry, targetName }: { entry: TAuditEntry; targetName?: string }) {
  const { t, i18n } = useAdminTexts();
  return (
    <li className="rounded-lg border border-border p-4" data-testid="audit-entry">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <p className="min-w-0 [overflow-wrap:anywhere]">
          <span className="font-medium" data-testid="audit-actor">
            {entry.actorUsername || t('admin.audit.system')}
          </span>{' '}
          <span data-testid="audit-action">{auditActionText(entry.action, t)}</span>{' '}
          <span className="break-all text-muted-foreground" data-testid="audit-target">
            {auditTargetText(entry.targetType, entry.targetId, t, targetName)}
          </span>
        </p>
        <time
          dateTime={entry.createdAt}
          className="text-sm whitespace-nowrap text-muted-foreground"
          title={formatRelative(entry.createdAt, i18n.language) ?? undefined}
          data-testid="audit-time"
        >
          {formatDateTime(entry.createdAt) ?? entry.createdAt}
        </time>
      </div>
      {entry.changes.length > 0 ? (
        <ul className="mt-2 grid gap-1 text-sm" aria-label={t('admin.audit.changes')}>
          {entry.changes.map((change) => (
            <li key={change.field} className="[overflow-wrap:anywhere]" data-testid="audit-change">
              <span className="font-medium">{auditFieldText(change.field, t)}</span>:{' '}
              <span className="text-muted-foreground line-through decoration-1">
                {auditValueText(change.before, t, change.field)}
              </span>{' '}
              <ArrowRightIcon className="inline size-3" aria-label={t('admin.audit.to')} />{' '}
              <span>{auditValueText(change.after, t, change.field)}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}
