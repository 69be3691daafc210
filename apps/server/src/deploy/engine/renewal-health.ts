import type { TKeyText, TRenewalHealth } from '@portico/shared/certificates/schemas';
import type { TText } from '@portico/shared/i18n/text';
import { msg } from './messages';
import { asRoot, firstMarked, marked, outputOf, type TStepContext } from './step-context';

// How the server renews its certificates. certbot's packages schedule `certbot renew` with a
// systemd timer (certbot.timer, or snap.certbot.renew.timer for the snap) and, on Debian, also
// with /etc/cron.d/certbot, which skips itself when systemd runs. Without systemd only a running
// cron daemon with a certbot entry renews anything: a server without either never renews.

/** What is there; no writes. A process counts as cron when its name is cron or crond. */
const PROBE = `if [ -d /run/systemd/system ]; then
  echo PORTICO_SYSTEMD=yes
  for u in certbot.timer snap.certbot.renew.timer; do
    [ "$(systemctl show -p LoadState --value "$u" 2>/dev/null)" = loaded ] || continue
    echo "PORTICO_TIMER=$u"
    systemctl is-active --quiet "$u" && echo "PORTICO_TIMER_ACTIVE=$u"
  done
fi
for f in /etc/cron.d/* /etc/crontab /var/spool/cron/crontabs/root /var/spool/cron/root; do
  [ -f "$f" ] && grep -qs '^[^#]*certbot.*renew' "$f" && echo "PORTICO_CRON_FILE=$f"
done
for p in /proc/[0-9]*/comm; do
  case "$(cat "$p" 2>/dev/null)" in cron|crond) echo PORTICO_CRON_RUNNING=yes ;; esac
done
for n in cron crond; do p=$(command -v "$n" 2>/dev/null) && echo "PORTICO_CRON_BIN=$n"; done
exit 0`;

/** Where Portico's own entries go: named for Portico, so a removal or a reader knows whose. */
export const PORTICO_CRON_FILE = '/etc/cron.d/portico-certbot';
export const PORTICO_TIMER = 'portico-certbot-renew.timer';
const PORTICO_UNIT_FILES = [
  '/etc/systemd/system/portico-certbot-renew.service',
  '/etc/systemd/system/portico-certbot-renew.timer',
];

/** Twice a day, as certbot's own schedule; certbot renews only what is due. */
const CRON_ENTRY = `# Written by Portico: renews Let's Encrypt certificates (certbot renews only those due).
17 3,15 * * * root certbot -q renew
`;

const SERVICE_UNIT = `[Unit]
Description=Renew Let's Encrypt certificates (written by Portico)

[Service]
Type=oneshot
ExecStart=/usr/bin/env certbot -q renew
`;

const TIMER_UNIT = `[Unit]
Description=Renew Let's Encrypt certificates twice a day (written by Portico)

[Timer]
OnCalendar=*-*-* 03,15:17:00
RandomizedDelaySec=1h
Persistent=true

[Install]
WantedBy=timers.target
`;

// $1: the unit.
const ENABLE_TIMER = `systemctl daemon-reload 2>&1; systemctl enable --now "$1" 2>&1 || exit $?
systemctl is-active --quiet "$1" && echo PORTICO_TIMER_ACTIVE="$1"`;

// $1: cron or crond. Started now, and at boot through the init system's own tool when known.
const START_CRON = `n=$1
if command -v service >/dev/null 2>&1; then service "$n" start 2>&1 && echo "PORTICO_STARTED=service $n start"; fi
if ! grep -qsx -e cron -e crond /proc/[0-9]*/comm; then "$n" 2>&1 && echo "PORTICO_STARTED=$n"; fi
if command -v update-rc.d >/dev/null 2>&1; then update-rc.d "$n" defaults >/dev/null 2>&1 && echo "PORTICO_BOOT=update-rc.d $n defaults"
elif command -v rc-update >/dev/null 2>&1; then rc-update add "$n" default >/dev/null 2>&1 && echo "PORTICO_BOOT=rc-update add $n default"
elif command -v chkconfig >/dev/null 2>&1; then chkconfig "$n" on >/dev/null 2>&1 && echo "PORTICO_BOOT=chkconfig $n on"; fi
exit 0`;

interface TProbe {
  systemd: boolean;
  timers: string[];
  activeTimer?: string;
  cronFile?: string;
  cronRunning: boolean;
  cronBin?: string;
}

async function probe(c: TStepContext): Promise<TProbe> {
  const r = await asRoot(c.session, PROBE);
  return {
    systemd: firstMarked(r.stdout, 'PORTICO_SYSTEMD') === 'yes',
    timers: marked(r.stdout, 'PORTICO_TIMER'),
    activeTimer: firstMarked(r.stdout, 'PORTICO_TIMER_ACTIVE'),
    cronFile: firstMarked(r.stdout, 'PORTICO_CRON_FILE'),
    cronRunning: firstMarked(r.stdout, 'PORTICO_CRON_RUNNING') === 'yes',
    cronBin: firstMarked(r.stdout, 'PORTICO_CRON_BIN'),
  };
}

const note = (key: string, params?: Record<string, string>): TKeyText =>
  params ? { key: `certificates.renewal.${key}`, params } : { key: `certificates.renewal.${key}` };

/** The note as a log line (the same catalog sentence). */
const said = (n: TKeyText): TText => ({ key: n.key, params: n.params ?? {} });

async function underSystemd(c: TStepContext, found: TProbe): Promise<TRenewalHealth> {
  const at = new Date().toISOString();
  const health = (unit: string, setUp: boolean, notes: TKeyText[]): TRenewalHealth => ({
    method: 'systemd-timer',
    where: unit,
    working: true,
    setUpByPortico: setUp,
    notes,
    checkedAt: at,
  });
  const active = found.activeTimer;
  if (active) return health(active, false, [note('timerActive', { unit: active })]);
  const existing = found.timers[0];
  if (!existing) {
    await c.session.syncFile(PORTICO_UNIT_FILES[0]!, SERVICE_UNIT, 0o644);
    await c.session.syncFile(PORTICO_UNIT_FILES[1]!, TIMER_UNIT, 0o644);
  }
  const unit = existing ?? PORTICO_TIMER;
  const r = await asRoot(c.session, ENABLE_TIMER, { args: [unit] });
  if (firstMarked(r.stdout, 'PORTICO_TIMER_ACTIVE') !== unit) {
    const output = outputOf(r).trim();
    if (output) c.log.warning(`systemctl: ${output}`);
    return {
      method: 'none',
      where: unit,
      working: false,
      setUpByPortico: !existing,
      notes: [note('none'), note('noneWayOut')],
      checkedAt: at,
    };
  }
  return existing
    ? health(unit, true, [note('timerEnabled', { unit })])
    : health(unit, true, [note('timerInstalled', { unit, files: PORTICO_UNIT_FILES.join(', ') })]);
}

async function withCron(c: TStepContext, found: TProbe): Promise<TRenewalHealth> {
  const at = new Date().toISOString();
  const notes: TKeyText[] = [];
  let setUp = false;
  if (!found.cronRunning && found.cronBin) {
    const r = await asRoot(c.session, START_CRON, { args: [found.cronBin] });
    const how = firstMarked(r.stdout, 'PORTICO_STARTED');
    if (how) {
      setUp = true;
      notes.push(note('cronStarted', { how }));
      const boot = firstMarked(r.stdout, 'PORTICO_BOOT');
      notes.push(boot ? note('cronBootEnabled', { how: boot }) : note('cronBootUnknown'));
    }
  }
  const running = found.cronRunning || setUp;
  if (!running) {
    return {
      method: 'none',
      where: null,
      working: false,
      setUpByPortico: false,
      notes: [note('none'), note('noneWayOut')],
      checkedAt: at,
    };
  }
  let file = found.cronFile;
  if (file) notes.unshift(note('cronFound', { file }));
  else {
    await c.session.syncFile(PORTICO_CRON_FILE, CRON_ENTRY, 0o644);
    file = PORTICO_CRON_FILE;
    setUp = true;
    notes.push(note('cronEntryInstalled', { file }));
  }
  return {
    method: 'cron',
    where: file,
    working: true,
    setUpByPortico: setUp,
    notes,
    checkedAt: at,
  };
}

/**
 * After the certificate: finds how the server renews it, sets up a scheduler where one can be
 * (enables certbot's timer, installs Portico's own timer or cron entry, starts an installed but
 * stopped cron), and says in the log what it found and what it wrote where. A server where
 * nothing can renew is reported, not failed: the site works today, and the completion step and
 * the certificate section say what is missing and what to do.
 */
export async function renewalHealthStep(c: TStepContext): Promise<TRenewalHealth> {
  c.log.info(msg('renewal.checking'));
  const found = await probe(c);
  const health = found.systemd ? await underSystemd(c, found) : await withCron(c, found);
  for (const n of health.notes) {
    if (health.working) c.log.success(said(n));
    else c.log.warning(said(n));
  }
  return health;
}
