import { cva, type VariantProps } from 'class-variance-authority';
import { Slot } from 'radix-ui';
import type * as React from 'react';
import { cn } from '@/lib/utils';

export const buttonVariants = cva(
  'inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-md text-sm font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background disabled:pointer-events-none disabled:opacity-60 [&_svg]:pointer-events-none [&_svg]:size-4 [&_svg]:shrink-0',
  {
    variants: {
      variant: {
        default: 'bg-primary text-primary-foreground shadow-sm hover:bg-primary-hover',
        destructive:
          'bg-destructive text-destructive-foreground shadow-sm hover:bg-destructive-hover',
        outline:
          'border border-input bg-background shadow-sm hover:bg-accent hover:text-accent-foreground',
        secondary: 'bg-secondary text-secondary-foreground hover:bg-secondary-hover',
        ghost: 'hover:bg-accent hover:text-accent-foreground',
        link: 'text-primary underline-offset-4 hover:underline',
      },
      size: {
        default: 'h-10 px-4 py-2',
        sm: 'h-8 rounded-md px-3 text-xs',
        lg: 'h-11 rounded-md px-6 text-base',
        icon: 'size-10',
        'icon-sm': 'size-8',
      },
    },
    defaultVariants: { variant: 'default', size: 'default' },
  },
);

export type TButtonProps = React.ComponentProps<'button'> &
  VariantProps<typeof buttonVariants> & { asChild?: boolean };

/**
 * A mouse press on a submit button leaves the focus in the field being edited until the click
 * lands. Moving it to the button would blur the field first, and a form that checks a field on
 * leaving it would then show that field's error above the button, pushing the button down from
 * under the pointer before the release: the press would submit nothing. The submit itself checks
 * every field and focuses the first one in error.
 */
function keepFieldFocus(
  event: React.MouseEvent<HTMLButtonElement>,
  own?: React.MouseEventHandler<HTMLButtonElement>,
) {
  own?.(event);
  if (event.button === 0 && !event.defaultPrevented) event.preventDefault();
}

export function Button({ className, variant, size, asChild = false, ...props }: TButtonProps) {
  const Comp = asChild ? Slot.Root : 'button';
  const submit = !asChild && props.type === 'submit';
  return (
    <Comp
      data-slot="button"
      data-variant={variant ?? 'default'}
      className={cn(buttonVariants({ variant, size, className }))}
      {...(asChild ? {} : { type: props.type ?? 'button' })}
      {...props}
      {...(submit ? { onMouseDown: (event) => keepFieldFocus(event, props.onMouseDown) } : {})}
    />
  );
}
