import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { cpuPerFileSetup } from '../../scripts/cpu-per-file.ts';
import { jsonGroup } from './build/json-group.ts';

export default defineProject({
  plugins: [jsonGroup(), react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['src/test/setup.ts', ...cpuPerFileSetup()],
    // Above the 5 s that src/test/setup.ts gives a wait for the screen, so a slow screen fails
    // with what it showed rather than as a test out of time.
    testTimeout: 15_000,
  },
});
