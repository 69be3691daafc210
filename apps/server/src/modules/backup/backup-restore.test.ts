// `portico backup` and `portico restore` on PGlite and PostgreSQL: the archive restores into an
// empty store of either kind, where the same account signs in and its stored SSH password
// decrypts; every refusal (a store with data, a newer schema, a wrong or missing passphrase, a
// truncated or damaged archive) names its cause and leaves the target exactly as it was.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCliStore } from '../../../test/support/cli-store';
import { createProxy, SSH_PASSWORD } from '../../../test/support/proxies-test-helpers';
import { runTs } from '../../../test/support/spawn';
import { decryptedSecrets } from '../../../test/support/stored-secrets';
import { withAppOnStore } from '../../../test/support/test-app';
import { newCredentials, TestClient } from '../../../test/support/test-client';
import {
  createTestDatabase,
  type TTestDatabase,
  testDatabaseKinds,
} from '../../../test/support/test-database';
import { loadConfig } from '../../config';
import { holdsTables } from '../../db/table-copy';
import { BACKUP_MAGIC, readBackupHeader } from '../../lib/backup-archive';
import { restoreBackup } from './restore.service';

const PASSPHRASE = 'correct horse battery';

/** Every path under `dir` with its bytes' hash: a target's state, to compare before and after. */
function snapshot(dir: string): Record<string, string> {
  if (!existsSync(dir)) return {};
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    out[path] = entry.isFile()
      ? createHash('sha256').update(readFileSync(path)).digest('hex')
      : 'dir';
  }
  return out;
}

/** A copy of `file` whose header says something else, signed again as a whole archive would be. */
function resigned(file: string, change: (header: Record<string, unknown>) => void): string {
  const bytes = readFileSync(file);
  const first = bytes.indexOf(0x0a);
  const second = bytes.indexOf(0x0a, first + 1);
  const { sha256: _, ...header } = JSON.parse(bytes.subarray(first + 1, second).toString('utf8'));
  change(header);
  const body = bytes.subarray(second + 1);
  const sha256 = createHash('sha256')
    .update(`${JSON.stringify(header)}\n`)
    .update(body)
    .digest('hex');
  const out = `${file}.resigned`;
  writeFileSync(
    out,
    Buffer.concat([
      Buffer.from(`${BACKUP_MAGIC}\n${JSON.stringify({ ...header, sha256 })}\n`),
      body,
    ]),
  );
  return out;
}

function damaged(file: string, name: string, damage: (bytes: Buffer) => Buffer): string {
  const out = `${file}.${name}`;
  writeFileSync(out, damage(Buffer.from(readFileSync(file))));
  return out;
}

const scratch = mkdtempSync(join(tmpdir(), 'portico-backups-'));
const newDataDir = () => mkdtempSync(join(scratch, 'target-'));

describe.each(testDatabaseKinds())('backup and restore from %s', { timeout: 120_000 }, (kind) => {
  const envA = useCliStore(kind, 'backup-a');
  const creds = newCredentials('backup');
  const archive = join(scratch, `${kind}.portico-backup`);
  const encrypted = join(scratch, `${kind}-encrypted.portico-backup`);
  const passphraseFile = join(scratch, 'passphrase');
  let domain: string;
  // A restore into an empty data dir runs initdb and every migration in the child: over a minute
  // on a loaded 2-core machine (CI, 60 s kill, once), so the child gets the lab drill's 120 s.
  const cli = (env: NodeJS.ProcessEnv, args: string[]) =>
    runTs('src/cli.ts', args, { env, timeoutMs: 120_000 });

  beforeAll(async () => {
    writeFileSync(passphraseFile, `${PASSPHRASE}\n`);
    domain = await withAppOnStore(envA, async ({ app }) => {
      const client = new TestClient(app, { headers: { 'accept-language': 'en' } });
      await client.register(creds);
      return (await createProxy(client)).input.domain;
    });
  });

  /** On the store of `env`: the account signs in, sees its proxy, and its SSH password decrypts. */
  async function usable(env: NodeJS.ProcessEnv) {
    await withAppOnStore(env, async ({ app, database }) => {
      const client = new TestClient(app);
      expect((await client.login(creds.username, creds.password)).statusCode).toBe(200);
      const mine = await client.request({ method: 'GET', url: '/api/user/proxy-configurations' });
      expect(mine.json().map((p: { domain: string }) => p.domain)).toEqual([domain]);
      expect(await decryptedSecrets(database, loadConfig(env).secretKeyFile)).toContain(
        SSH_PASSWORD,
      );
    });
  }

  it('writes one archive and says what it wrote and its size', async () => {
    const result = await cli(envA, ['backup', '--out', archive]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(
        `^wrote ${archive} \\(\\d+(\\.\\d)? (B|KiB|MiB)\\): \\d+ tables, \\d+ rows, schema \\d+; NOT encrypted`,
      ),
    );
    const { header } = readBackupHeader(archive);
    expect(header).toMatchObject({ database: kind, encryption: null });
    expect(header.tables).toMatchObject({ users: 1, proxy_configurations: 1 });
    expect(header.schema.migrations).toBeGreaterThan(14);
  });

  it('restores into an empty PGlite data dir, where everything is usable', {
    timeout: 400_000,
  }, async () => {
    const envB = { PORTICO_DATA_DIR: newDataDir(), LANG: 'C' };
    const result = await cli(envB, ['restore', archive]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`into ${envB.PORTICO_DATA_DIR}`);
    await usable(envB);

    const before = snapshot(envB.PORTICO_DATA_DIR);
    const again = await cli(envB, ['restore', archive]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already holds a Portico database');
    expect(again.stderr).toContain('Nothing was restored.');
    expect(snapshot(envB.PORTICO_DATA_DIR)).toEqual(before);

    const replaced = await cli(envB, ['restore', archive, '--replace']);
    expect(replaced.code).toBe(0);
    expect(replaced.stdout).toMatch(/kept aside: .*secret\.key\.before-restore-/);
    await usable(envB);
  });

  // PostgreSQL targets where a PostgreSQL is given (TEST_DATABASE_URL), as every API suite.
  const postgresTargets = testDatabaseKinds().filter((k) => k === 'postgres');

  it.each(postgresTargets)(
    'restores into an empty %s database, where everything is usable',
    async () => {
      const target = await createTestDatabase('postgres', { migrated: false });
      try {
        const env = { PORTICO_DATA_DIR: newDataDir(), DATABASE_URL: target.url, LANG: 'C' };
        const config = loadConfig(env);
        await restoreBackup(archive, config);
        await usable(env);
        await expect(restoreBackup(archive, config)).rejects.toThrow(
          'The database already holds Portico tables',
        );
      } finally {
        await target.drop();
      }
    },
  );

  it('encrypts with a passphrase; restores only with it', async () => {
    const written = await cli(envA, [
      'backup',
      '--out',
      encrypted,
      '--passphrase-file',
      passphraseFile,
    ]);
    expect(written.code).toBe(0);
    expect(written.stdout).toContain('encrypted with the passphrase');
    expect(readBackupHeader(encrypted).header.encryption).toMatchObject({ kdf: 'scrypt' });
    const key = readFileSync(loadConfig(envA).secretKeyFile);
    expect(readFileSync(encrypted).includes(key)).toBe(false);

    const envB = { PORTICO_DATA_DIR: newDataDir(), LANG: 'C' };
    const config = loadConfig(envB);
    await expect(restoreBackup(encrypted, config)).rejects.toThrow(
      'is encrypted: give its passphrase',
    );
    await expect(
      restoreBackup(encrypted, config, { passphrase: 'not the passphrase' }),
    ).rejects.toThrow('The passphrase does not open');
    expect(snapshot(envB.PORTICO_DATA_DIR)).toEqual({});
    await restoreBackup(encrypted, config, { passphrase: PASSPHRASE });
    await usable(envB);
  });

  describe('refuses a damaged or foreign archive; the target stays as it was', () => {
    const cases: [string, () => string, string][] = [
      [
        'a newer schema',
        () =>
          resigned(archive, (h) => {
            (h.schema as { migrations: number }).migrations = 999;
          }),
        'made by a newer Portico',
      ],
      [
        'a truncated archive',
        () => damaged(archive, 'cut', (b) => b.subarray(0, b.length - 100)),
        'is cut short',
      ],
      [
        'a flipped byte in the data',
        () =>
          damaged(archive, 'flipped', (b) => {
            b[b.length - 50]! ^= 0x01;
            return b;
          }),
        'is damaged',
      ],
      [
        'a flipped byte in the header',
        () =>
          damaged(archive, 'header', (b) => {
            const at = b.indexOf('"createdAt":"') + 15;
            b[at]! ^= 0x01;
            return b;
          }),
        'is damaged',
      ],
      [
        'a file that is not a backup',
        () => damaged(archive, 'other', () => Buffer.from('hello\n')),
        'is not a Portico backup',
      ],
    ];

    it.each(cases)('%s, into an empty PGlite data dir', async (_, make, message) => {
      const file = make();
      const envB = { PORTICO_DATA_DIR: newDataDir(), LANG: 'C' };
      const result = await cli(envB, ['restore', file]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain('Nothing was restored.');
      expect(snapshot(envB.PORTICO_DATA_DIR)).toEqual({});
    });

    it.each(postgresTargets)('each, into an empty %s database', async () => {
      let target: TTestDatabase | undefined;
      try {
        target = await createTestDatabase('postgres', { migrated: false });
        const dataDir = newDataDir();
        const config = loadConfig({ PORTICO_DATA_DIR: dataDir, DATABASE_URL: target.url });
        for (const [, make, message] of cases) {
          await expect(restoreBackup(make(), config)).rejects.toThrow(message);
          expect(await holdsTables(target.database.db)).toBe(false);
          expect(snapshot(dataDir)).toEqual({});
        }
      } finally {
        await target?.drop();
      }
    });
  });
});

afterAll(() => {
  // The archives hold the secret key in clear: gone with the test.
  rmSync(scratch, { recursive: true, force: true });
});
