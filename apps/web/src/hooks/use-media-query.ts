import * as React from 'react';

/**
 * Whether the media query matches now, following changes (a rotated phone, a resized window).
 * Without matchMedia (tests, very old browsers) it answers `fallback`.
 */
export function useMediaQuery(query: string, fallback = true): boolean {
  const subscribe = React.useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  const read = () =>
    typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : fallback;
  return React.useSyncExternalStore(subscribe, read, () => fallback);
}
