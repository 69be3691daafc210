import type { TCertificateCheck, TServedCertificate } from '@portico/shared/certificates/schemas';
import { describe, expect, it } from 'vitest';
import type { TAlertedState } from '../../db/schema';
import { alertedStateOf, nginxNotReloaded, summaryOf } from './certificate-view';
import { alertEvents } from './certificate-watch';

const DAY = 24 * 60 * 60 * 1000;
const issued = new Date('2026-03-01T00:00:00Z');
const at = (days: number) => new Date(issued.getTime() + days * DAY);

const served: TServedCertificate = {
  fingerprint: 'AA:01',
  notBefore: issued.toISOString(),
  notAfter: at(90).toISOString(),
  issuer: 'Pebble Intermediate CA',
  names: ['shop.example.test'],
};
const ok = (days: number): TCertificateCheck => ({
  checkedAt: at(days).toISOString(),
  ok: true,
  problem: null,
  httpRedirects: true,
  httpProblem: null,
});
const failed = (days: number): TCertificateCheck => ({
  ...ok(days),
  ok: false,
  problem: { key: 'certificates.problem.refused', params: { where: '198.18.0.11:443' } },
});
const FINE: TAlertedState = { expiry: 'fine', checkFailed: false, notReloaded: false };

/** What one check at `days` would alert, given what was alerted before; then "alerted" moves on. */
function run(checks: { days: number; check: TCertificateCheck }[]) {
  let alerted = FINE;
  const sent: string[][] = [];
  for (const { days, check } of checks) {
    const row = { served, lastCheck: check, onServer: null };
    const current = alertedStateOf(row, at(days));
    sent.push(alertEvents(alerted, current, row).map((e) => e.kind));
    alerted = current;
  }
  return sent;
}

describe('alerts on state changes', () => {
  it('sends one alert per change, none while a state holds, none when it improves', () => {
    expect(
      run([
        { days: 1, check: ok(1) },
        { days: 59, check: ok(59) },
        { days: 61, check: ok(61) },
        { days: 62, check: ok(62) },
        { days: 70, check: ok(70) },
        { days: 84, check: ok(84) },
        { days: 84.5, check: ok(84.5) },
        { days: 85, check: failed(85) },
        { days: 85.2, check: failed(85.2) },
        { days: 85.5, check: ok(85.5) },
      ]),
    ).toEqual([[], [], ['warning'], [], [], ['danger'], [], ['checkFailed'], [], []]);
  });

  it('alerts a failed check on a fine certificate, and again after it recovered and failed', () => {
    expect(
      run([
        { days: 1, check: failed(1) },
        { days: 2, check: ok(2) },
        { days: 3, check: failed(3) },
      ]),
    ).toEqual([['checkFailed'], [], ['checkFailed']]);
  });
});

describe('nginx not reloaded', () => {
  const renewed = {
    fingerprint: 'BB:02',
    notBefore: at(29).toISOString(),
    notAfter: at(119).toISOString(),
  };

  it('is told when a check after the renewal still sees the older certificate', () => {
    const row = {
      served,
      lastCheck: ok(31),
      onServer: { ...renewed, readAt: at(30.5).toISOString() },
    };
    expect(nginxNotReloaded(row)).toBe(true);
    expect(summaryOf(row, at(31))?.nginxNotReloaded).toBe(true);
    const events = alertEvents(FINE, alertedStateOf(row, at(31)), row);
    expect(events).toEqual([
      { kind: 'notReloaded', servedNotAfter: served.notAfter, renewedNotBefore: renewed.notBefore },
    ]);
  });

  it('waits for a check made after the server was read, and is quiet once served', () => {
    const before = {
      served,
      lastCheck: ok(60),
      onServer: { ...renewed, readAt: at(60.5).toISOString() },
    };
    expect(nginxNotReloaded(before)).toBe(false);
    const same = {
      served: { ...served, ...renewed },
      lastCheck: ok(31),
      onServer: { ...renewed, readAt: at(30.5).toISOString() },
    };
    expect(nginxNotReloaded(same)).toBe(false);
  });
});

describe('the summary the lists show', () => {
  it('counts days and colours by the served certificate, danger when the check failed', () => {
    expect(summaryOf({ served, lastCheck: ok(70), onServer: null }, at(70))).toEqual({
      state: 'warning',
      daysLeft: 20,
      notAfter: served.notAfter,
      checkFailed: false,
      nginxNotReloaded: false,
    });
    expect(summaryOf({ served, lastCheck: failed(2), onServer: null }, at(2))?.state).toBe(
      'danger',
    );
    expect(summaryOf({ served: null, lastCheck: failed(0), onServer: null }, at(0))).toEqual({
      state: 'danger',
      daysLeft: null,
      notAfter: null,
      checkFailed: true,
      nginxNotReloaded: false,
    });
    expect(summaryOf(null, at(0))).toBeNull();
  });
});
