import { defineProject } from 'vitest/config';
import { cpuPerFileSetup } from '../../scripts/cpu-per-file.ts';
import { labUnavailableReason } from '../../testbed/src/prereqs.ts';
import { drizzleAsCommonJs } from './test/support/drizzle-commonjs.ts';

// Lab tests (real servers in network namespaces) get their own config; they are excluded here.
// Tests against a throwaway sshd (*.sshd.test.ts), a real `nginx -t` (*.nginx.test.ts) or
// dnsmasq (*.dns.test.ts) need root and the same Debian packages: elsewhere they are left out
// with one line saying why; under CI=true nothing is left out, so a missing prerequisite fails.
const unavailable = process.env.CI === 'true' ? undefined : labUnavailableReason();
if (unavailable) console.info(`server sshd/nginx/dns tests skipped: ${unavailable}`);

export default defineProject({
  plugins: [drizzleAsCommonJs()],
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: [
      '**/*.lab.test.ts',
      '**/node_modules/**',
      ...(unavailable ? ['**/*.sshd.test.ts', '**/*.nginx.test.ts', '**/*.dns.test.ts'] : []),
    ],
    environment: 'node',
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: cpuPerFileSetup(),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The files of a worker share one module registry: each file's import of Fastify, the
    // composition root and the modules was 265 of the project's 1,455 test-seconds here, and
    // the project went from 599 s to 355 s wall (823 → 389 CPU-s user) with every file passing.
    // A file must therefore not mock modules nor rely on module state another file left; none
    // does (no vi.mock, no module-level process.env writes), and lab files run isolated in
    // vitest.lab.config.ts.
    isolate: false,
  },
});
