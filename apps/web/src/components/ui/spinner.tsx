import { Loader2Icon } from 'lucide-react';
import { cn } from '@/lib/utils';

/** A spinning icon; with a label it is announced as a status, without one it is decoration. */
export function Spinner({ className, label }: { className?: string; label?: string }) {
  const icon = (
    <Loader2Icon className={cn('size-5 animate-spin text-primary', className)} aria-hidden="true" />
  );
  if (!label) return icon;
  return (
    <span role="status" className="inline-flex">
      {icon}
      <span className="sr-only">{label}</span>
    </span>
  );
}
