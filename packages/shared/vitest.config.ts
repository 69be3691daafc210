import { defineProject } from 'vitest/config';
import { cpuPerFileSetup } from '../../scripts/cpu-per-file.ts';

export default defineProject({
  test: {
    name: 'shared',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    setupFiles: cpuPerFileSetup(),
  },
});
