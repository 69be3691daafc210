import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { type BuildEnvironmentOptions, defineConfig } from 'vite';
import { jsonGroup } from './build/json-group.ts';
import { precompress } from './build/precompress.ts';
import { prerenderLanding } from './build/prerender-landing.ts';

// `npm run dev` starts the server with the same environment: follow its PORT (default 3000).
const api = `http://127.0.0.1:${process.env.PORT ?? '3000'}`;

// Dot directories are never served (apps/server/src/plugins/static.ts) nor precompressed.
const ssrBuild: BuildEnvironmentOptions = {
  outDir: 'dist/.prerender',
  emptyOutDir: true,
  copyPublicDir: false,
};

const clientBuild: BuildEnvironmentOptions = {
  outDir: 'dist',
  emptyOutDir: true,
  // The production CSP forbids inline scripts and data: fonts; keep every asset a file.
  assetsInlineLimit: 0,
  // dist/.vite/manifest.json maps each source module to its chunk (the e2e spec that checks
  // which chunks the landing page loads reads it). Dot directories are never served.
  manifest: true,
  // Every browser Portico supports preloads modules itself; the polyfill would be 1 kB more.
  modulePreload: { polyfill: false },
  rolldownOptions: {
    output: {
      // Libraries change less often than our code: in chunks of their own they stay cached
      // across releases. React is one; the other libraries the first page needs ($initial) are
      // another, one request instead of many small ones. Libraries used only behind sign-in
      // go with the screens that use them, so the landing page does not download them.
      codeSplitting: {
        groups: [
          {
            name: 'react',
            test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
            priority: 2,
          },
          { name: 'vendor', test: /node_modules[\\/]/, tags: ['$initial'], priority: 1 },
        ],
      },
    },
  },
};

// The client build, then the server-side one (`vite build --ssr src/prerender.tsx`, after it:
// `npm run build`), which renders the landing page into dist (build/prerender-landing.ts).
export default defineConfig(({ isSsrBuild }) => ({
  // jsonGroup: part of a catalog as a module of its own (the texts of screens behind sign-in).
  // precompress: brotli and gzip beside each file of the build, served by Accept-Encoding.
  plugins: isSsrBuild
    ? [jsonGroup(), react(), prerenderLanding('dist')]
    : [jsonGroup(), react(), tailwindcss(), precompress()],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // The Public Suffix List (wildcard domains) as tldts ships it packed: its ES modules build
      // came out at 120 kB gzip here (the label table twice), the packed one at 50 kB.
      tldts: fileURLToPath(
        new URL('../../node_modules/tldts/dist/index.esm.min.js', import.meta.url),
      ),
    },
  },
  // The year of this release, for its copyright line (src/build-year.d.ts).
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/api': { target: api, changeOrigin: false },
      '/ws': { target: api, ws: true },
      '/healthz': api,
      '/readyz': api,
    },
  },
  // The shared package is TypeScript: bundled into the server-side build, not imported by Node.
  ssr: { noExternal: ['@portico/shared'] },
  build: isSsrBuild ? ssrBuild : clientBuild,
}));
