const RELOADED_AT = 'portico:reloadedForChunk';
const AGAIN_AFTER_MS = 10_000;

/**
 * A chunk fetched on demand can be gone: Portico was updated while this page was open, and the
 * new build's files have other names. Vite reports it (vite:preloadError); the page reloads once
 * to get the new build. If a reload for this reason just happened, the error goes on to the
 * screen's error boundary, which says so, instead of reloading in a loop.
 */
export function reloadOnStaleChunk(target: Window = window): void {
  target.addEventListener('vite:preloadError', (event) => {
    const last = Number(target.sessionStorage.getItem(RELOADED_AT) ?? 0);
    if (Date.now() - last < AGAIN_AFTER_MS) return;
    target.sessionStorage.setItem(RELOADED_AT, String(Date.now()));
    event.preventDefault();
    target.location.reload();
  });
}
