import type { TBackupStatus } from '@portico/shared/admin/backups';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { BackupCard } from './backup-card';

afterEach(() => vi.unstubAllGlobals());

const schedule = { dir: '/var/backups/portico', time: '03:30', keep: 7, encrypted: false };
const ok: NonNullable<TBackupStatus['last']> = {
  startedAt: '2031-01-03T03:30:00.000Z',
  finishedAt: '2031-01-03T03:30:02.000Z',
  ok: true,
  file: '/var/backups/portico/portico-20310103-033000.portico-backup',
  bytes: 52_428,
  error: null,
};

const show = (body: TBackupStatus, lang: 'en' | 'es') => {
  stubFetch({ 'GET /api/admin/backups/status': { body } });
  return renderWithProviders(<BackupCard />, { lang });
};

describe('the backup card', () => {
  it('en: the schedule, that the archives hold the key in clear, and the last backup', async () => {
    await show({ schedule, last: ok }, 'en');
    expect((await screen.findByTestId('admin-backup-schedule')).textContent).toBe(
      'Every day at 03:30 UTC into /var/backups/portico, keeping the newest 7. Not encrypted: each archive holds the secret key; keep the directory as safe as the data.',
    );
    const last = screen.getByTestId('admin-backup-last');
    expect(last.dataset.ok).toBe('true');
    expect(last.textContent).toMatch(
      /^Last backup Jan 3, 2031, .+: \/var\/backups\/portico\/portico-20310103-033000\.portico-backup \(51\.2 KiB\)\.$/,
    );
  });

  it('es: a failed backup says so with its cause', async () => {
    await show(
      {
        schedule: { ...schedule, encrypted: true },
        last: { ...ok, ok: false, file: null, bytes: null, error: 'EACCES: permission denied' },
      },
      'es',
    );
    expect((await screen.findByTestId('admin-backup-schedule')).textContent).toContain(
      'Cifradas con el archivo de frase de paso.',
    );
    const last = screen.getByTestId('admin-backup-last');
    expect(last.dataset.ok).toBe('false');
    expect(last.textContent).toMatch(
      /^La última copia \(3 ene 2031, .+\) falló: EACCES: permission denied$/,
    );
  });

  it('en: without PORTICO_BACKUP_DIR it says how to turn backups on', async () => {
    await show({ schedule: null, last: null }, 'en');
    expect((await screen.findByTestId('admin-backup-schedule')).textContent).toContain(
      'No scheduled backups: set PORTICO_BACKUP_DIR',
    );
    expect(screen.queryByTestId('admin-backup-last')).toBeNull();
  });
});
