import * as React from 'react';
import { ErrorBoundary } from './error-boundary';

type TButtonProps = React.ComponentProps<'button'>;

/**
 * A header menu whose code (Radix's dropdown, with its positioning and focus code) is fetched
 * when the pointer or focus reaches its button, and which opens on the first press: the landing
 * page does not download it. `renderButton` draws the button with the props it gets (the
 * stand-in before the first press, the busy one while the code arrives, then the menu's own
 * trigger); `renderMenu` draws the lazily loaded menu, open the first time, around its trigger.
 */
export function DeferredMenu({
  load,
  renderButton,
  renderMenu,
}: {
  load: () => Promise<unknown>;
  renderButton: (props: TButtonProps) => React.ReactElement;
  renderMenu: (trigger: React.ReactElement) => React.ReactNode;
}) {
  const [asked, setAsked] = React.useState(false);
  // A failed prefetch is dropped: the press that asks for the menu meets the failure itself.
  const prefetch = () => void load().catch(() => undefined);

  if (!asked) {
    return renderButton({
      onPointerEnter: prefetch,
      onFocus: prefetch,
      onClick: () => setAsked(true),
    });
  }
  // If the menu's code cannot be fetched, the button reloads the page (which also brings a new
  // build's files when Portico was updated meanwhile).
  const reload = renderButton({ onClick: () => window.location.reload() });
  return (
    <ErrorBoundary fallback={reload}>
      <React.Suspense fallback={renderButton({ 'aria-busy': true })}>
        {renderMenu(renderButton({}))}
      </React.Suspense>
    </ErrorBoundary>
  );
}
