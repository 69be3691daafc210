import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { cpuPerFileSetup } from '../../scripts/cpu-per-file.ts';
import { jsonGroup } from './build/json-group.ts';

/**
 * Files that need a module registry of their own, as a fresh page has it: one mocks a module
 * (`vi.mock` only reaches importers evaluated after it); two need the lazy screens not loaded
 * yet (a screen's loading state; the landing page rendered on the "server", then hydrated).
 * They run in `web-isolated`.
 */
export const ISOLATED_WEB_FILES = [
  'src/components/form-dialog.test.tsx',
  'src/prerender.test.tsx',
  'src/app/router.test.tsx',
];

export const webProject = {
  plugins: [jsonGroup(), react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
  test: {
    environment: 'jsdom' as const,
    setupFiles: ['src/test/setup.ts', ...cpuPerFileSetup()],
    // Above the 5 s that src/test/setup.ts gives a wait for the screen, so a slow screen fails
    // with what it showed rather than as a test out of time.
    testTimeout: 15_000,
  },
};

export default defineProject({
  ...webProject,
  test: {
    ...webProject.test,
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...ISOLATED_WEB_FILES],
    // The files of a worker share one module registry: each file's import of React, Radix and
    // the app's modules (and jsdom's set-up) was most of this project's cost, 266 s → 31 s
    // for the whole project here. A file must not rely on module state another file left (the
    // toast store, i18n, lazy screens) nor mock modules: such a file goes in ISOLATED_WEB_FILES.
    isolate: false,
  },
});
