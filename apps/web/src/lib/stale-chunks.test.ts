import { afterEach, describe, expect, it, vi } from 'vitest';
import { reloadOnStaleChunk } from './stale-chunks';

function fakeWindow() {
  const events = new EventTarget();
  const reload = vi.fn();
  const target = {
    addEventListener: events.addEventListener.bind(events),
    sessionStorage: window.sessionStorage,
    location: { reload },
  } as unknown as Window;
  const failChunk = () => {
    const event = new Event('vite:preloadError', { cancelable: true });
    events.dispatchEvent(event);
    return event;
  };
  return { target, reload, failChunk };
}

afterEach(() => {
  sessionStorage.clear();
  vi.useRealTimers();
});

describe('a chunk that no longer exists (Portico updated while the page was open)', () => {
  it('reloads the page once, and lets the next failure through to the error boundary', () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const { target, reload, failChunk } = fakeWindow();
    reloadOnStaleChunk(target);
    expect(failChunk().defaultPrevented).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
    // The reloaded page fails again at once: no loop, the error goes on.
    vi.advanceTimersByTime(2_000);
    expect(failChunk().defaultPrevented).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reloads again for a failure long after the last reload', () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const { target, reload, failChunk } = fakeWindow();
    reloadOnStaleChunk(target);
    failChunk();
    vi.advanceTimersByTime(60_000);
    expect(failChunk().defaultPrevented).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
