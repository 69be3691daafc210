import { createRequire } from 'node:module';
import type { Plugin } from 'vitest/config';
import { BUNDLED_PACKAGES } from '../../bundled-packages.ts';

const require = createRequire(import.meta.url);

/**
 * The tests load the packages the product's bundle carries (BUNDLED_PACKAGES: drizzle-orm) as
 * CommonJS. Vitest leaves packages to Node's own import, and as ES modules drizzle-orm is some
 * 110 files, for each of which Node parses the package's 179 kB package.json again (2.0 CPU-s for
 * its four entry points against 0.3 as CommonJS): a cost paid by every lab file (each in a fresh
 * worker) and every server-tier worker. Every import of it in a test run goes through here, so
 * there is one copy of its classes.
 */
export function drizzleAsCommonJs(): Plugin {
  return {
    name: 'drizzle-as-commonjs',
    enforce: 'pre',
    resolveId(source) {
      return BUNDLED_PACKAGES.test(source) ? require.resolve(source) : null;
    },
  };
}
