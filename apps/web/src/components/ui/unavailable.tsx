import * as React from 'react';
import { cn } from '@/lib/utils';
import { Tooltip, TooltipContent, TooltipTrigger } from './tooltip';

export type TActionElement = React.ReactElement<{
  className?: string;
  onClick?: React.MouseEventHandler;
  disabled?: boolean;
}>;

/**
 * Wraps one button. With a `reason`, the button cannot act and says why in a tooltip. It is
 * marked aria-disabled instead of disabled: a disabled button cannot take focus, so keyboard and
 * screen-reader users would never reach the reason. Hover or focus shows it; a click or a tap
 * (touch has no hover) shows it instead of acting. Without a reason the button is returned as is.
 */
export function Unavailable({
  reason,
  children,
}: {
  reason: string | null | undefined;
  children: TActionElement;
}) {
  const [open, setOpen] = React.useState(false);
  if (!reason) return children;
  const button = React.cloneElement(children, {
    disabled: false,
    'aria-disabled': true,
    'data-unavailable': '',
    className: cn(children.props.className, 'cursor-not-allowed opacity-60'),
    // preventDefault also stops the tooltip trigger's own handlers, which would close it.
    onPointerDown: (event: React.PointerEvent) => event.preventDefault(),
    onClick: (event: React.MouseEvent) => {
      event.preventDefault();
      setOpen(true);
    },
  } as React.HTMLAttributes<HTMLElement>);
  return (
    <Tooltip open={open} onOpenChange={setOpen}>
      <TooltipTrigger asChild>{button}</TooltipTrigger>
      <TooltipContent data-testid="unavailable-reason">{reason}</TooltipContent>
    </Tooltip>
  );
}
