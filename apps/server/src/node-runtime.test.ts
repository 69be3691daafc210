import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runProcess } from '../test/support/spawn.js';

const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  gte(a: string, b: string): boolean;
};

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SCRIPT = path.join(ROOT, 'scripts/node-runtime.sh');
const script = readFileSync(SCRIPT, 'utf8');
const pinned = /^version=(\d+\.\d+\.\d+)$/m.exec(script)![1]!;

describe('the Node the tests run on (scripts/node-runtime.sh)', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'portico-node-runtime-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('pins a Node 24 release on the line .nvmrc names, one that engines allows', () => {
    const nvmrc = readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim();
    expect(semver.satisfies(pinned, `${nvmrc}.x`)).toBe(true);
    const engines = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines.node;
    expect(semver.satisfies(pinned, engines)).toBe(true);
    expect(script).toMatch(/\[x64\]=sha512-[A-Za-z0-9+/]{86}==/);
    expect(script).toMatch(/\[arm64\]=sha512-[A-Za-z0-9+/]{86}==/);
  });

  it('puts the pinned Node 24 (or a later 24 the machine has) first on the PATH it prints', async () => {
    // Fetched once into .cache/node (npm test has done it before this runs); then quick.
    const printed = await runProcess('bash', [SCRIPT, 'test'], { timeoutMs: 300_000 });
    expect(printed.stderr).not.toMatch(/warning|failed/);
    expect(printed.code).toBe(0);
    const version = await runProcess('node', ['-p', 'process.versions.node'], {
      env: { PATH: printed.stdout.trim() },
    });
    const node = version.stdout.trim();
    expect(node.split('.')[0]).toBe('24');
    expect(semver.gte(node, pinned)).toBe(true);
  }, 300_000);

  it('refuses a download whose checksum is not the pinned one, and unpacks nothing', async () => {
    // A copy that always fetches (whatever node the machine has) and pins a wrong sha512.
    mkdirSync(path.join(scratch, 'scripts'));
    const copy = path.join(scratch, 'scripts/node-runtime.sh');
    const edited = script
      .replace(/\[x64\]=sha512-\S+/, `[x64]=sha512-${'A'.repeat(86)}==`)
      .replace(/\[arm64\]=sha512-\S+/, `[arm64]=sha512-${'A'.repeat(86)}==`)
      .replace('if system_node_will_do; then', 'if false; then');
    expect(edited).not.toBe(script);
    writeFileSync(copy, edited);
    // With the machine's own node, as npm test first calls it (Debian's npm under Node 24 takes
    // minutes to pack this 50 MB tarball).
    const machinePath = process.env
      .PATH!.split(':')
      .filter((dir) => !dir.includes('.cache/node/'))
      .join(':');
    const run = await runProcess('bash', [copy, 'test'], {
      env: { PATH: machinePath },
      timeoutMs: 300_000,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/checksum sha512-\S+ is not the pinned sha512-A+==/);
    expect(run.stdout).toBe('');
    const cache = path.join(scratch, '.cache/node');
    // Only the lock file is left: no runtime, no half-unpacked download.
    expect(readdirSync(cache)).toEqual(['.lock']);
  }, 300_000);
});
