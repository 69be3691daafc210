import * as React from 'react';
import { useToast } from '@/hooks/use-toast';
import { ErrorBoundary } from './error-boundary';

const Toaster = React.lazy(async () => ({
  default: (await import('@/components/ui/toaster')).Toaster,
}));

/**
 * The toast viewport (Radix Toast), fetched with the first toast and kept from then on: a first
 * visit that shows no toast does not download it.
 */
export function DeferredToaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = React.useState(false);
  if (toasts.length > 0 && !needed) setNeeded(true);
  if (!needed) return null;
  // Without its code no toast shows, and the page goes on working.
  return (
    <ErrorBoundary fallback={null}>
      <React.Suspense fallback={null}>
        <Toaster />
      </React.Suspense>
    </ErrorBoundary>
  );
}
