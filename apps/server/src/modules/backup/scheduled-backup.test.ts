// Scheduled backups (PORTICO_BACKUP_DIR): the app schedules one daily job at the configured
// time; each run writes an archive, keeps the newest N, and records how it went, which the admin
// panel reads from /api/admin/backups/status (a failure too, with its cause).
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient } from '../../../test/support/proxies-test-helpers';
import { removeTestTempDir, testTempDir } from '../../../test/support/temp-dir';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { ConfigError, loadConfig, type TBackupSchedule } from '../../config';
import { verifyBackupArchive } from '../../lib/backup-archive';
import { newSecretKey, writeKeyFile } from '../../lib/secrets';
import { createBackupRunsRepository } from './backup-runs.repository';
import { BACKUP_QUEUE, runScheduledBackup } from './scheduled-backup';

const DAY = 86_400_000;

describe.each(testDatabaseKinds())('scheduled backups on %s', (kind) => {
  const scratch = testTempDir('portico-scheduled-');
  const secretKeyFile = join(scratch, 'secret.key');
  const schedule: TBackupSchedule = {
    dir: join(scratch, 'backups'),
    time: '03:30',
    keep: 2,
    passphraseFile: undefined,
    sessionSecretFile: join(scratch, 'session.secret'),
  };
  let t: TTestApp;
  let at = Date.UTC(2031, 0, 1, 3, 30);

  beforeAll(async () => {
    writeKeyFile(secretKeyFile, newSecretKey());
    t = await createTestApp(kind, {
      config: { backups: schedule, secretKeyFile },
      deploy: { workers: 1 },
    });
  });
  afterAll(async () => {
    await t?.close();
    removeTestTempDir(scratch);
  });

  const run = (overrides: Partial<TBackupSchedule> = {}) =>
    runScheduledBackup({
      database: t.database,
      schedule: { ...schedule, ...overrides },
      files: { secretKeyFile, sessionSecretFile: schedule.sessionSecretFile },
      runs: createBackupRunsRepository(t.database.db),
      clock: () => at,
    });

  const status = async () => {
    const { client } = await signedInClient(t, 'admin');
    const response = await client.request({ method: 'GET', url: '/api/admin/backups/status' });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  it('schedules one daily job at the configured time (UTC)', async () => {
    const schedules = await t.app.queue.boss.getSchedules();
    expect(schedules.filter((s) => s.name === BACKUP_QUEUE)).toMatchObject([
      { cron: '30 3 * * *', options: { tz: 'UTC' } },
    ]);
  });

  it('writes an archive each run, keeps the newest two, and shows the last one', async () => {
    for (let day = 0; day < 3; day++) {
      await run();
      at += DAY;
    }
    const names = readdirSync(schedule.dir).sort();
    expect(names).toEqual([
      'portico-20310102-033000.portico-backup',
      'portico-20310103-033000.portico-backup',
    ]);
    const newest = join(schedule.dir, names[1]!);
    const header = await verifyBackupArchive(newest);
    expect(Object.keys(header.tables)).toEqual(expect.arrayContaining(['users', 'backup_runs']));
    expect(await status()).toEqual({
      schedule: { dir: schedule.dir, time: '03:30', keep: 2, encrypted: false },
      last: {
        startedAt: '2031-01-03T03:30:00.000Z',
        finishedAt: '2031-01-03T03:30:00.000Z',
        ok: true,
        file: newest,
        bytes: statSync(newest).size,
        error: null,
      },
    });
  });

  it('records a failed run with its cause, and keeps the archives it had', async () => {
    const blocker = join(scratch, 'a-file');
    writeFileSync(blocker, 'not a directory');
    at += DAY;
    await expect(run({ dir: join(blocker, 'backups') })).rejects.toThrow('ENOTDIR');
    const { last } = await status();
    expect(last).toMatchObject({ ok: false, file: null, bytes: null });
    expect(last.error).toContain('ENOTDIR');
    expect(readdirSync(schedule.dir)).toHaveLength(2);
  });

  it('is for admins only', async () => {
    const { client } = await signedInClient(t);
    const response = await client.request({ method: 'GET', url: '/api/admin/backups/status' });
    expect(response.statusCode).toBe(403);
  });
});

describe('the backup settings', () => {
  it('are off unless PORTICO_BACKUP_DIR is set; the time is HH:MM UTC, 03:00 by default', () => {
    expect(loadConfig({}).backups).toBeUndefined();
    expect(loadConfig({ PORTICO_BACKUP_DIR: '/var/backups/portico' }).backups).toMatchObject({
      dir: '/var/backups/portico',
      time: '03:00',
      keep: 7,
      passphraseFile: undefined,
    });
    expect(() => loadConfig({ PORTICO_BACKUP_DIR: '/b', PORTICO_BACKUP_TIME: '3:30' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ PORTICO_BACKUP_DIR: '/b', PORTICO_BACKUP_KEEP: '0' })).toThrow(
      'PORTICO_BACKUP_KEEP: must be a whole number between 1 and 1000',
    );
  });
});
