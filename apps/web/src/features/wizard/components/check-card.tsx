import { CircleAlertIcon } from 'lucide-react';
import type * as React from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { StatusIcon, type TTone } from './status-icon';

type TBadgeVariant = 'outline' | 'secondary' | 'success' | 'destructive';

/**
 * One check of the validation step (DNS, SSH): icon, title and status badge, the status in a
 * sentence (announced), what it found, the failure with what to do, and the check's own notes.
 */
export function CheckCard({
  check,
  status,
  tone,
  badge,
  title,
  statusText,
  text,
  details,
  failure,
  children,
}: {
  check: 'dns' | 'ssh';
  status: string;
  tone: TTone;
  badge: TBadgeVariant;
  title: string;
  statusText: string;
  text: string;
  /** What the check found, above the failure. */
  details?: React.ReactNode;
  /** Shown when the check failed: its title, the cause when known, and what to do. */
  failure?: { title: string; cause: string | null; advice: string };
  children?: React.ReactNode;
}) {
  const titleId = `wizard-${check}-title`;
  return (
    <section
      className="grid gap-3 rounded-lg border border-border p-4"
      aria-labelledby={titleId}
      data-testid={`wizard-${check}`}
      data-status={status}
    >
      <div className="flex flex-wrap items-center gap-2">
        <StatusIcon tone={tone} />
        <h3 id={titleId} className="font-semibold">
          {title}
        </h3>
        <Badge variant={badge} className="ml-auto" data-testid={`wizard-${check}-badge`}>
          {statusText}
        </Badge>
      </div>
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {text}
      </p>
      {details}
      {failure ? (
        <Alert variant="destructive" data-testid={`wizard-${check}-error`}>
          <CircleAlertIcon aria-hidden="true" />
          <AlertTitle>{failure.title}</AlertTitle>
          <AlertDescription className="grid gap-2">
            {failure.cause ? <p>{failure.cause}</p> : null}
            <p>{failure.advice}</p>
          </AlertDescription>
        </Alert>
      ) : null}
      {children}
    </section>
  );
}
