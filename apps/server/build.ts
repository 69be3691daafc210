import { fileURLToPath } from 'node:url';
import { bundleServer } from './bundle';

// `npm run build`: the server and the CLI into dist/ (bundle.ts), what `npm start` runs.
await bundleServer(fileURLToPath(new URL('./dist', import.meta.url)));
console.info('server bundle written to apps/server/dist');
