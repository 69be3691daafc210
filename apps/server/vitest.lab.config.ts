import { defineProject } from 'vitest/config';
import { labUnavailableReason } from '../../testbed/vitest.config';

// Server tests against the lab's test servers (src/**/*.lab.test.ts): they need root and the
// Debian packages the lab uses. Elsewhere they are left out with one line saying why; under
// CI=true a missing prerequisite fails the run (the testbed config throws on import).
const unavailable = labUnavailableReason();
if (unavailable) console.info(`server-lab: lab tests skipped: ${unavailable}`);

export default defineProject({
  test: {
    name: 'server-lab',
    include: unavailable ? [] : ['src/**/*.lab.test.ts'],
    exclude: ['**/node_modules/**'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
