import type * as React from 'react';
import { cn } from '@/lib/utils';

export function Input({ className, type = 'text', ...props }: React.ComponentProps<'input'>) {
  return (
    <input
      type={type}
      data-slot="input"
      className={cn(
        'flex h-10 w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-base text-foreground shadow-xs transition-colors placeholder:text-muted-foreground/80 outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30 disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive aria-invalid:focus-visible:ring-destructive/25 sm:text-sm file:border-0 file:bg-transparent file:text-sm file:font-medium',
        className,
      )}
      {...props}
    />
  );
}

/**
 * For technical values (addresses, domains, user names): no auto-capitalisation, spell check or
 * autofill by default, which would otherwise alter what the user typed on phones.
 */
export function CodeInput(props: React.ComponentProps<'input'>) {
  return <Input autoComplete="off" autoCapitalize="none" spellCheck={false} {...props} />;
}
