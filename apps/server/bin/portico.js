#!/usr/bin/env node
// The `portico` command: the built CLI when present, else the TypeScript source through tsx, so
// `npx portico --help` works right after `npm ci`, before any build.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const built = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
if (existsSync(built) && process.env.PORTICO_CLI_FROM_SOURCE !== '1') {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli.ts', import.meta.url).href);
}
