import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.ts';

// `npm run dev` starts the server with the same environment: follow its PORT (default 3000).
const api = `http://127.0.0.1:${process.env.PORT ?? '3000'}`;

export default defineConfig({
  // precompress: brotli and gzip beside each file of the build, served by Accept-Encoding.
  plugins: [react(), tailwindcss(), precompress()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
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
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The production CSP forbids inline scripts and data: fonts; keep every asset a file.
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        // Libraries change less often than our code: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
});
