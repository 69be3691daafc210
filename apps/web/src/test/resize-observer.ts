import { afterEach, beforeEach, vi } from 'vitest';

// jsdom has no ResizeObserver; Radix's checkbox measures itself with one.
class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

/** A ResizeObserver that observes nothing, for each test of the calling file. */
export function stubResizeObserver() {
  beforeEach(() => vi.stubGlobal('ResizeObserver', NoopResizeObserver));
  afterEach(() => vi.unstubAllGlobals());
}
