import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// The tests wait for what the screen shows, not for how fast it shows it: in CI the lab tier
// runs beside this one on two cores, and a first render there has taken over Testing
// Library's default second (a 404 page still "loading" at 1 s failed a run).
configure({ asyncUtilTimeout: 5000 });

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
