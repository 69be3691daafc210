import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { BUNDLED_PACKAGES } from './bundled-packages';
import { writeEmptyDump } from './src/db/pglite-dir';

/**
 * Bundles the server and the CLI into `outdir` (main.js, cli.js, their chunks, the migrations
 * and an empty PGlite data dir): `npm run build` into dist/, the tests into a folder of their
 * own (test/support/test-bundle.ts). npm packages stay external (installed by npm ci), but for
 * the ones in BUNDLED_PACKAGES; @portico/shared is TypeScript source in the workspace, so it is
 * bundled in. `outdir` must sit one level below apps/server, as dist/ does: the code finds
 * web/dist relative to itself.
 */
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

const externalPackages: Plugin = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@portico/') || BUNDLED_PACKAGES.test(args.path)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

export async function bundleServer(outdir: string): Promise<void> {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: { main: here('./src/main.ts'), cli: here('./src/cli.ts') },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    // main.js loads the server as a chunk of its own, after setting V8's flags (src/main.ts).
    splitting: true,
    // Chunks sit beside main.js: files are found relative to the code (web/dist, migrations).
    chunkNames: '[name]-[hash]',
    plugins: [externalPackages],
    // Bundled CommonJS helpers may still call require(); give ESM output one.
    banner: {
      js: "import { createRequire as __portico_createRequire } from 'node:module'; const require = __portico_createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  // Migrations are read at run time next to the bundle (see src/db/migrate.ts).
  cpSync(here('./src/db/migrations'), join(outdir, 'migrations'), { recursive: true });
  // A new, empty PGlite data dir (initdb's output), so that a first start on the embedded
  // database unpacks it instead of running initdb (seconds of CPU); see openDatabase.
  await writeEmptyDump(join(outdir, 'pgdata.tar.gz'));
}
