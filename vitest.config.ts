import { defineConfig } from 'vitest/config';

// One entry per test tier; each workspace owns its own vitest config. A tier that cannot run on
// this machine (lab tiers without root) leaves itself empty with one line saying why, so a run
// of that tier alone passes with no files.
export default defineConfig({
  test: {
    passWithNoTests: true,
    projects: [
      'packages/shared',
      'apps/server',
      'apps/server/vitest.lab.config.ts',
      'apps/web',
      'testbed',
    ],
  },
});
