import { CircleAlertIcon } from 'lucide-react';
import type * as React from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { StatusIcon, type TTone } from './status-icon';

type TBadgeVariant = 'outline' | 'secondary' | 'success' | 'destructive';

/**
 * One check of the validation step (DNS, SSH): icon, title and status badge, the status in a
 * sentence (announced), what it found, the failure, and the check's own notes.
 *
 * Each thing is said once. A failure replaces the status sentence (the badge already says
 * "Failed"). When the server gave the cause, that sentence is the whole alert: it names the
 * check, the cause and what to do (e.g. "SSH connection failed: authentication failed (check the
 * user name and password)."), so no title or advice repeats it. Only without a cause do the
 * generic title and advice speak. `children` are notes for a check that has not failed.
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
  /** Shown when the check failed: the cause in the server's words, else title and advice. */
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
      {failure ? null : (
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {text}
        </p>
      )}
      {details}
      {failure ? (
        <Alert variant="destructive" data-testid={`wizard-${check}-error`}>
          <CircleAlertIcon aria-hidden="true" />
          {failure.cause ? (
            <AlertDescription>
              <p>{failure.cause}</p>
            </AlertDescription>
          ) : (
            <>
              <AlertTitle>{failure.title}</AlertTitle>
              <AlertDescription>
                <p>{failure.advice}</p>
              </AlertDescription>
            </>
          )}
        </Alert>
      ) : (
        children
      )}
    </section>
  );
}
