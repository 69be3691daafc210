import type * as React from 'react';
import { Button } from '@/components/ui/button';

/**
 * A certificate section's "use" or "replace" (an uploaded certificate, a DNS challenge): opens
 * the section's form under it and closes it again, with the section's other actions beside it.
 */
export function FormToggle({
  open,
  onOpenChange,
  icon,
  label,
  testId,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  icon: React.ReactNode;
  label: string;
  testId: string;
  /** What stands beside it (a "remove"). */
  children?: React.ReactNode;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button
        variant="outline"
        size="sm"
        onClick={() => onOpenChange(!open)}
        aria-expanded={open}
        data-testid={testId}
      >
        {icon}
        {label}
      </Button>
      {children}
    </div>
  );
}
