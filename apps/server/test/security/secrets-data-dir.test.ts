// Secrets: the database files (password hashes, session ids, ciphertexts, audit) are
// readable by the Portico user only, even in a data dir the operator made beforehand with a
// looser mode (mkdir under umask 022, a container volume): Portico does not change the
// operator's directory, but its own database directory is 0700 whatever was there before.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { openStore } from '../../src/runtime';

const scratch = mkdtempSync(join(tmpdir(), 'portico-data-mode-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const mode = (path: string) => statSync(path).mode & 0o777;

describe('the PGlite database directory', () => {
  it('is 0700 in a data dir made 0755 beforehand, and a loosened one is tightened at the next start', async () => {
    const dataDir = join(scratch, 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const config = loadConfig({ PORTICO_DATA_DIR: dataDir });

    const first = await openStore(config);
    await first.close();
    const db = join(dataDir, 'db');
    expect(readdirSync(db)).toContain('PG_VERSION');
    expect(mode(db)).toBe(0o700);
    expect(mode(dataDir)).toBe(0o755);

    chmodSync(db, 0o755);
    const second = await openStore(config);
    await second.close();
    expect(mode(db)).toBe(0o700);
  }, 120_000);
});
