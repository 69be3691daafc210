import { fileURLToPath } from 'node:url';

/**
 * The setup file that logs each test file's CPU seconds, only when PORTICO_CPU_LOG names the
 * log (docs/TESTING.md, "Where the CPU goes"); otherwise nothing is added to a run.
 */
export function cpuPerFileSetup(): string[] {
  return process.env.PORTICO_CPU_LOG
    ? [fileURLToPath(new URL('./cpu-per-file.setup.ts', import.meta.url))]
    : [];
}
