import { CheckCircle2Icon, CircleDashedIcon, Loader2Icon, XCircleIcon } from 'lucide-react';
import { cn } from '@/lib/utils';

export type TTone = 'waiting' | 'running' | 'ok' | 'failed';

/** The icon of a check's state; decoration only, the text beside it says the state. */
export function StatusIcon({ tone, className }: { tone: TTone; className?: string }) {
  const cls = cn('size-5 shrink-0', className);
  if (tone === 'ok')
    return <CheckCircle2Icon className={cn(cls, 'text-success')} aria-hidden="true" />;
  if (tone === 'failed')
    return <XCircleIcon className={cn(cls, 'text-destructive')} aria-hidden="true" />;
  if (tone === 'running') {
    return <Loader2Icon className={cn(cls, 'animate-spin text-primary')} aria-hidden="true" />;
  }
  return <CircleDashedIcon className={cn(cls, 'text-muted-foreground')} aria-hidden="true" />;
}

export const dnsTone = {
  waiting: 'waiting',
  validating: 'running',
  verified: 'ok',
  failed: 'failed',
} as const;
export const sshTone = {
  pending: 'waiting',
  validating: 'running',
  verified: 'ok',
  failed: 'failed',
} as const;
