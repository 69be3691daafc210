import { useSyncExternalStore } from 'react';
import { cn } from '@/lib/utils';

const never = () => () => {};

/**
 * False while React renders on the server (the build's prerendered landing page) and while it
 * hydrates that HTML; true from then on, and at once on a page React renders itself. The
 * prerendered page's controls are inert until then (fields read-only, buttons disabled but drawn
 * as usual): a press before React holds them would be lost, or worse, the browser's own submit
 * (a GET with the password in the address). Disabled, they are plainly not ready yet, and a
 * browser test's click or fill waits for them.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}

/**
 * A control of the prerendered page: disabled until React holds it (useHydrated), and drawn as
 * usual meanwhile (`className` with the disabled fading undone), so nothing flickers.
 */
export function useInertUntilHydrated(className?: string): {
  disabled: boolean;
  className: string | undefined;
} {
  const inert = !useHydrated();
  return { disabled: inert, className: inert ? cn(className, 'disabled:opacity-100') : className };
}
