import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Screenshots describe the last run only: a renamed or removed screen leaves no stale PNG. */
export default function globalSetup(): void {
  // Two runs side by side (scripts/test-tiers.sh): the script emptied the folder once before both.
  if (process.env.E2E_KEEP_SCREENSHOTS) return;
  rmSync(fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url)), {
    recursive: true,
    force: true,
  });
}
