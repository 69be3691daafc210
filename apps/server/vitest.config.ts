import { defineProject } from 'vitest/config';

// Lab tests (real servers in network namespaces) get their own config; they are excluded here.
export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    exclude: ['src/**/*.lab.test.ts', '**/node_modules/**'],
    environment: 'node',
    globalSetup: ['src/test-support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
