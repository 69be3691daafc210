import { defineProject } from 'vitest/config';
import { cpuPerFileSetup } from '../../scripts/cpu-per-file.ts';
import { labTierScheduling } from '../../testbed/src/file-parallelism.ts';
import { labUnavailableReason } from '../../testbed/src/prereqs.ts';
import { drizzleAsCommonJs } from './test/support/drizzle-commonjs.ts';

// The deploy tier: the engine against real lab servers (testbed/). Outside CI, a machine that
// cannot run the lab (not root, packages missing) leaves the tier out with one line saying why;
// under CI=true nothing is excluded, so a missing prerequisite fails loudly.
const unavailable = process.env.CI === 'true' ? undefined : labUnavailableReason();
if (unavailable) console.info(`server lab tests skipped: ${unavailable}`);
// Files named *.postgres.lab.test.ts need PostgreSQL (TEST_DATABASE_URL; .ci/run sets it).
const noPostgres = !process.env.TEST_DATABASE_URL && !unavailable;
if (noPostgres)
  console.info('server lab tests on PostgreSQL skipped: TEST_DATABASE_URL is not set');

export default defineProject({
  plugins: [drizzleAsCommonJs()],
  test: {
    name: 'lab',
    include: unavailable ? [] : ['src/**/*.lab.test.ts', 'test/**/*.lab.test.ts'],
    exclude: ['**/node_modules/**', ...(noPostgres ? ['**/*.postgres.lab.test.ts'] : [])],
    environment: 'node',
    // The server tier's database templates (test/support/global-setup.ts): a file's PGlite or
    // PostgreSQL database is copied from one rather than built from initdb and the migrations.
    globalSetup: ['test/support/global-setup.ts'],
    // Two files at once, each with its own lab (PORTICO_LAB_WORKERS; docs/TESTING.md).
    ...labTierScheduling(process.env.PORTICO_LAB_WORKERS),
    setupFiles: cpuPerFileSetup(),
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
