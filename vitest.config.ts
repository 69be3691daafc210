import { defineConfig } from 'vitest/config';

// One entry per test tier; each workspace owns its own vitest config. A tier that cannot run on
// this machine (lab tiers without root) leaves itself empty with one line saying why, so a run
// of that tier alone passes with no files.
export default defineConfig({
  test: {
    passWithNoTests: true,
    // Most of the slow files wait on sshd, nginx, Pebble or their own deadlines rather than the
    // CPU, so three files at once on a 2-core machine overlap the waiting (the full tier went from
    // 1,162 s to 753 s here, all passing). The lab tiers take two at a time, each file with a lab
    // of its own (testbed/src/file-parallelism.ts), in a group after these when a run has both.
    maxWorkers: 3,
    projects: [
      'packages/shared',
      'apps/server',
      'apps/server/vitest.lab.config.ts',
      'apps/web',
      'apps/web/vitest.isolated.config.ts',
      'testbed',
    ],
  },
});
