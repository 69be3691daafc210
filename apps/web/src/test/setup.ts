import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Vitest globals are off, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  localStorage.clear();
  // The language is kept as a cookie too (lib/i18n.ts): no test inherits another's choice.
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API
  document.cookie = 'portico.lang=; max-age=0; path=/';
});

// jsdom has no ResizeObserver; Radix's checkbox (and tooltip, popper) measure themselves with one.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
