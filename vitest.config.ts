import { defineConfig } from 'vitest/config';

// One entry per test tier; each workspace owns its own vitest config.
export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/server', 'apps/web', 'testbed'],
  },
});
