import type * as React from 'react';
import { cn } from '@/lib/utils';

/**
 * A form of the app: the browser's own validation off (the shared zod schema checks and the
 * messages are ours, in the screen's language), fields in one column 1rem apart.
 */
export function Form({ className, ...props }: React.ComponentProps<'form'>) {
  return <form noValidate className={cn('grid gap-4', className)} {...props} />;
}
