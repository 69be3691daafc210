import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TBackupStatus } from '@portico/shared/admin/backups';
import type { TBackupSchedule } from '../../config';
import type { TDatabase } from '../../db/client';
import type { TQueue } from '../../jobs/queue';
import { type TBackupFiles, writeBackup } from './backup.service';
import type { TBackupRunsRepository } from './backup-runs.repository';

export const BACKUP_QUEUE = 'backup';
const ARCHIVE = /^portico-\d{8}-\d{6}\.portico-backup$/;

export interface TScheduledBackupDeps {
  database: TDatabase;
  schedule: TBackupSchedule;
  files: TBackupFiles;
  runs: TBackupRunsRepository;
  clock?: () => number;
}

function archiveName(at: Date): string {
  const stamp = at.toISOString().replaceAll(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `portico-${stamp}.portico-backup`;
}

/** Deletes the oldest archives beyond `keep` (only files named as this job names them). */
function prune(dir: string, keep: number): void {
  const archives = readdirSync(dir)
    .filter((name) => ARCHIVE.test(name))
    .sort();
  for (const name of archives.slice(0, Math.max(0, archives.length - keep))) {
    rmSync(join(dir, name), { force: true });
  }
}

/** The message a failed run records: the error's own words, which name a path or a code. */
function failure(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500);
}

/** One backup into the schedule's directory, recorded (success or failure), then old ones pruned. */
export async function runScheduledBackup(deps: TScheduledBackupDeps): Promise<void> {
  const now = deps.clock ?? Date.now;
  const startedAt = new Date(now());
  const { dir, keep, passphraseFile } = deps.schedule;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const passphrase = passphraseFile
      ? readFileSync(passphraseFile, 'utf8').split(/\r?\n/, 1)[0]
      : undefined;
    const file = join(dir, archiveName(startedAt));
    const { bytes } = await writeBackup(deps.database, deps.files, file, passphrase);
    await deps.runs.record({
      startedAt,
      finishedAt: new Date(now()),
      ok: true,
      file,
      bytes,
      error: null,
    });
    prune(dir, keep);
  } catch (error) {
    await deps.runs.record({
      startedAt,
      finishedAt: new Date(now()),
      ok: false,
      file: null,
      bytes: null,
      error: failure(error),
    });
    throw error;
  }
}

/** Daily at the schedule's time (UTC), one run across instances (a singleton on the queue). */
export async function registerBackupJob(
  queue: TQueue,
  deps: TScheduledBackupDeps,
  options: { work: boolean; onError: (error: unknown) => void },
): Promise<void> {
  const [hours, minutes] = deps.schedule.time.split(':').map(Number);
  await queue.recurring(BACKUP_QUEUE, `${minutes} ${hours} * * *`, {
    expireInSeconds: 60 * 60,
    periodMs: 24 * 60 * 60_000,
    work: options.work ? () => runScheduledBackup(deps).catch(options.onError) : undefined,
  });
}

/** What the admin panel shows. */
export async function backupStatus(
  schedule: TBackupSchedule | undefined,
  runs: TBackupRunsRepository,
): Promise<TBackupStatus> {
  const last = await runs.last();
  return {
    schedule: schedule
      ? {
          dir: schedule.dir,
          time: schedule.time,
          keep: schedule.keep,
          encrypted: schedule.passphraseFile !== undefined,
        }
      : null,
    last: last
      ? {
          startedAt: last.startedAt.toISOString(),
          finishedAt: last.finishedAt.toISOString(),
          ok: last.ok,
          file: last.file,
          bytes: last.bytes,
          error: last.error,
        }
      : null,
  };
}
