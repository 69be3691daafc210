import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';
import { labTierScheduling } from './src/file-parallelism.ts';
import { labUnavailableReason } from './src/prereqs.ts';

// The lab's own tests need root and Debian packages. Elsewhere they are left out with one line
// saying why; under CI=true a missing prerequisite fails the run.
const unavailable = labUnavailableReason();
if (unavailable && process.env.CI === 'true') {
  throw new Error(`testbed: lab tests cannot run: ${unavailable}`);
}
if (unavailable) console.info(`testbed: lab tests skipped: ${unavailable}`);

export default defineProject({
  // Also when run alone (--config testbed/vitest.config.ts), paths are relative to testbed/.
  root: path.dirname(fileURLToPath(import.meta.url)),
  test: {
    name: 'testbed',
    // Relative to this directory: testbed/**/*.test.ts.
    include: unavailable ? [] : ['**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    environment: 'node',
    // Scheduled with the server's lab tier, which it runs beside (src/file-parallelism.ts).
    ...labTierScheduling(process.env.PORTICO_LAB_WORKERS),
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
