import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { bundleServer } from '../../bundle';
import { SERVER_ROOT } from './spawn';

/**
 * The tests that start Portico or its CLI as a process run them as `npm start` does, from a
 * bundle (bundle.ts) made fresh for each Vitest run by the global setup, in a folder of that
 * run's own (the lab and the other tiers run at once). Through tsx, every start compiled and
 * loaded the sources again and a first start ran initdb: about twice the CPU of the bundle's
 * (12 s against 6 s for a first start here). Without PORTICO_TEST_BUNDLE (a bench, a script),
 * the helpers start the sources through tsx as before.
 */
export async function makeTestBundle(): Promise<() => void> {
  const dir = join(SERVER_ROOT, `.test-dist-${process.pid}`);
  await bundleServer(dir);
  process.env.PORTICO_TEST_BUNDLE = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}

/** How to run an entry point (src/main.ts, src/cli.ts): node's arguments before the program's. */
export function entryArgs(entry: string): string[] {
  const bundle = process.env.PORTICO_TEST_BUNDLE;
  const name = /^src\/(main|cli)\.ts$/.exec(entry)?.[1];
  return bundle && name ? [join(bundle, `${name}.js`)] : ['--import', 'tsx', entry];
}
