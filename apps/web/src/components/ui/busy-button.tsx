import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';

export type TBusyButtonProps = React.ComponentProps<typeof Button> & {
  /** The request the button started is running: a spinner in the icon's place, disabled. */
  busy: boolean;
  icon?: React.ReactNode;
  /** The label while busy ("Deleting…"); the children otherwise. */
  busyLabel?: React.ReactNode;
};

/**
 * A button that runs a request. While busy it says so to assistive technology (`aria-busy`),
 * cannot be pressed again, and is never narrower than it was idle, so a shorter busy label
 * does not pull the buttons beside it across.
 */
export function BusyButton({
  busy,
  icon,
  busyLabel,
  children,
  disabled,
  style,
  ref,
  ...props
}: TBusyButtonProps) {
  const own = React.useRef<HTMLButtonElement | null>(null);
  const idleWidth = React.useRef(0);
  // After each idle commit, so the busy render that follows knows the width it must keep.
  React.useLayoutEffect(() => {
    if (!busy && own.current) idleWidth.current = own.current.offsetWidth;
  });
  const setRef = React.useCallback(
    (node: HTMLButtonElement | null) => {
      own.current = node;
      if (typeof ref === 'function') ref(node);
      else if (ref) ref.current = node;
    },
    [ref],
  );
  return (
    <Button
      ref={setRef}
      aria-busy={busy || undefined}
      // An unavailable button (ui/unavailable.tsx) stays focusable to tell its reason.
      disabled={props['aria-disabled'] ? disabled : disabled || busy}
      style={busy && idleWidth.current ? { ...style, minWidth: idleWidth.current } : style}
      {...props}
    >
      {busy ? <Spinner className="size-4 text-current" /> : icon}
      {busy && busyLabel !== undefined ? busyLabel : children}
    </Button>
  );
}
