import * as React from 'react';

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
  const prefetch = () => void load();

  if (!asked) {
    return renderButton({
      onPointerEnter: prefetch,
      onFocus: prefetch,
      onClick: () => setAsked(true),
    });
  }
  return (
    <React.Suspense fallback={renderButton({ 'aria-busy': true })}>
      {renderMenu(renderButton({}))}
    </React.Suspense>
  );
}
