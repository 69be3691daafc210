import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Screenshots describe the last run only: a renamed or removed screen leaves no stale PNG. */
export default function globalSetup(): void {
  rmSync(fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url)), {
    recursive: true,
    force: true,
  });
}
