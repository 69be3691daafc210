import { rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TTestApp } from './test-app';

/**
 * An app (PGlite) serving `webRoot` as its built web app, for the enclosing describe; the
 * directory is removed after it. Returns the app's getter (it exists from beforeAll on).
 */
export function appServingWebRoot(webRoot: string): () => TTestApp {
  let web: TTestApp | undefined;
  beforeAll(async () => {
    web = await createTestApp('pglite', { webRoot });
  });
  afterAll(async () => {
    await web?.close();
    rmSync(webRoot, { recursive: true, force: true });
  });
  return () => web!;
}
