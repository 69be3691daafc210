import { cn } from '@/lib/utils';

/** The Portico mark and name; the name can hide on narrow screens. */
export function Logo({
  className,
  hideNameOnMobile = false,
}: {
  className?: string;
  hideNameOnMobile?: boolean;
}) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold text-foreground', className)}>
      <svg viewBox="0 0 32 32" className="size-8 shrink-0" aria-hidden="true">
        <rect width="32" height="32" rx="7" fill="currentColor" className="text-primary" />
        <path
          d="M8 25V12.5a8 8 0 0 1 16 0V25"
          fill="none"
          stroke="#fff"
          strokeWidth="3"
          strokeLinecap="round"
        />
        <path
          d="M13 25v-9h6v9"
          fill="none"
          stroke="#fff"
          strokeWidth="2.5"
          strokeLinejoin="round"
        />
      </svg>
      <span className={cn('text-lg tracking-tight', hideNameOnMobile && 'hidden sm:inline')}>
        Portico
      </span>
    </span>
  );
}
