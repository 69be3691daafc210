import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// semver is what npm itself checks `engines` with (installed here through Fastify).
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

const root = new URL('../../../', import.meta.url);
const read = (file: string) => JSON.parse(readFileSync(new URL(file, root), 'utf8'));

describe('the Node versions Portico supports', () => {
  it('are the ones every locked package supports: npm ci prints no engine warning', () => {
    const supported: string = read('package.json').engines.node;
    const oldest = semver.minVersion(supported)?.version;
    expect(oldest).toBe('22.13.0');
    const lock = read('package-lock.json') as {
      packages: Record<string, { version?: string; engines?: { node?: string } }>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([, p]) => p.engines?.node && !semver.satisfies(oldest!, p.engines.node))
      .map(([path, p]) => `${path}@${p.version} wants node ${p.engines?.node}`);
    expect(refusing).toEqual([]);
  });

  it('include the runtime .nvmrc names, and every locked package supports each line engines allows', () => {
    const supported: string = read('package.json').engines.node;
    const nvmrc = readFileSync(new URL('.nvmrc', root), 'utf8').trim();
    expect(semver.satisfies(`${nvmrc}.0.0`, supported)).toBe(true);
    // The first release of each line `engines` names: what `npm ci` would be run with at worst.
    const lines = supported.split('||').map((range) => semver.minVersion(range)!.version);
    expect(lines).toEqual(['22.13.0', '24.0.0']);
    const lock = read('package-lock.json') as {
      packages: Record<string, { version?: string; engines?: { node?: string } }>;
    };
    const refusing = lines.flatMap((line) =>
      Object.entries(lock.packages)
        .filter(([, p]) => p.engines?.node && !semver.satisfies(line, p.engines.node))
        .map(([path, p]) => `${path}@${p.version} refuses node ${line}`),
    );
    expect(refusing).toEqual([]);
  });
});
