import type * as React from 'react';
import { Tooltip, TooltipContent, TooltipTrigger } from './tooltip';

/**
 * An icon-only button or link with its name said twice: to assistive technology (aria-label on
 * the child) and on hover or focus, in a tooltip, so a sighted user does not have to guess.
 */
export function LabelledIcon({ label, children }: { label: string; children: React.ReactElement }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>{children}</TooltipTrigger>
      <TooltipContent>{label}</TooltipContent>
    </Tooltip>
  );
}
