import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { writeEmptyDump } from './src/db/pglite-dir';

/**
 * Bundles the server and the CLI into dist/. npm packages stay external (installed by npm ci);
 * @portico/shared is TypeScript source in the workspace, so it is bundled in.
 */
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

const externalPackages: Plugin = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@portico/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

rmSync(here('./dist'), { recursive: true, force: true });
await build({
  entryPoints: { main: here('./src/main.ts'), cli: here('./src/cli.ts') },
  outdir: here('./dist'),
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
cpSync(here('./src/db/migrations'), here('./dist/migrations'), { recursive: true });
// A new, empty PGlite data dir (initdb's output), so that a first start on the embedded database
// unpacks it instead of running initdb (seconds of CPU); see openDatabase.
await writeEmptyDump(here('./dist/pgdata.tar.gz'));
console.info('server bundle written to apps/server/dist');
