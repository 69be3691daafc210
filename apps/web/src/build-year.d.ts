/**
 * The year `npm run build` ran (vite.config.ts, vitest.config.ts): the footer's copyright year.
 * A constant, so the prerendered landing page and the app that takes it over always agree.
 */
declare const __BUILD_YEAR__: number;
