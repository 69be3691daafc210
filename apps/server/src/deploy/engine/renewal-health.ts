import type { TKeyText, TRenewalHealth } from '@portico/shared/certificates/schemas';
import type { TText } from '@portico/shared/i18n/text';
import { StepError, withOutput } from './failure';
import { msg } from './messages';
import { installPackages } from './packages';
import { asRoot, firstMarked, marked, outputOf, type TStepContext } from './step-context';

// How the server renews its certificates. certbot's packages schedule `certbot renew` with a
// systemd timer (certbot.timer, or snap.certbot.renew.timer for the snap) and, on Debian, also
// with /etc/cron.d/certbot, which skips itself when systemd runs. Without systemd only a running
// cron daemon with a certbot entry renews anything: a server without either never renews, so a
// deployment that cannot set one up fails this step (the site is served, but would expire).

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
  [ -f "$f" ] || continue
  lines=$(grep -s '^[^#]*certbot.*renew' "$f") || continue
  # Debian's own entry skips itself under systemd (test ! -d /run/systemd/system).
  if [ -d /run/systemd/system ]; then printf '%s\n' "$lines" | grep -qv 'run/systemd/system' || continue; fi
  echo "PORTICO_CRON_FILE=$f"
done
# read, a builtin: a cat per process costs a fork each on a busy server.
for p in /proc/[0-9]*/comm; do
  n=''
  { read -r n < "$p"; } 2>/dev/null
  case "$n" in cron|crond) echo PORTICO_CRON_RUNNING=yes; break ;; esac
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
running() { grep -qsx -e cron -e crond /proc/[0-9]*/comm; }
if command -v service >/dev/null 2>&1; then service "$n" start 2>&1 && running && echo "PORTICO_STARTED=service $n start"; fi
if ! running; then "$n" 2>&1; sleep 1; running && echo "PORTICO_STARTED=$n"; fi
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

/** The cron package of the server's family: Debian's cron, or cronie (whose daemon is crond). */
const CRON_PACKAGE = { debian: 'cron', rhel: 'cronie' } as const;

/**
 * No cron binary: installs the family's cron package the way nginx and certbot are installed.
 * Returns the binary now present, or throws why it could not be installed.
 */
async function installCron(c: TStepContext, notes: TKeyText[]): Promise<string> {
  const pkg = CRON_PACKAGE[c.server.family];
  const { tool, result } = await installPackages(c, [pkg]);
  const bin = firstMarked((await asRoot(c.session, PROBE)).stdout, 'PORTICO_CRON_BIN');
  if (result.code !== 0 || !bin) {
    const why =
      result.code === 0
        ? msg('renewal.cronStillMissing', { tool, package: pkg })
        : msg('renewal.cronInstallFailed', { tool, package: pkg, code: String(result.code) });
    throw new RenewalUnavailable(withOutput(why, outputOf(result)));
  }
  notes.push(note('cronInstalled', { package: pkg, tool }));
  return bin;
}

/** Cron running with a certbot entry: found, or set up (installed, started, entry written). */
async function withCron(c: TStepContext, found: TProbe): Promise<TRenewalHealth> {
  const at = new Date().toISOString();
  const notes: TKeyText[] = [];
  let setUp = false;
  if (!found.cronRunning) {
    const bin = found.cronBin ?? (await installCron(c, notes));
    setUp = notes.length > 0;
    const r = await asRoot(c.session, START_CRON, { args: [bin] });
    const how = firstMarked(r.stdout, 'PORTICO_STARTED');
    if (!how) {
      throw new RenewalUnavailable(
        withOutput(msg('renewal.cronStartFailed', { name: bin }), outputOf(r)),
      );
    }
    setUp = true;
    notes.push(note('cronStarted', { how }));
    const boot = firstMarked(r.stdout, 'PORTICO_BOOT');
    notes.push(boot ? note('cronBootEnabled', { how: boot }) : note('cronBootUnknown'));
  }
  let file = found.cronFile;
  // Said after what was started: the entry runs because cron now does.
  if (file) notes.push(note('cronFound', { file }));
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

/** Why no scheduler could be set up: the step fails with it (renewalFailure). */
class RenewalUnavailable extends Error {
  constructor(readonly reason: TText) {
    super('no renewal scheduler');
  }
}

/** What the certificate section keeps for a server where nothing renews. */
function nothingRenews(): TRenewalHealth {
  return {
    method: 'none',
    where: null,
    working: false,
    setUpByPortico: false,
    notes: [note('none'), note('noneWayOut')],
    checkedAt: new Date().toISOString(),
  };
}

/** The step's failure: nothing renews, why Portico could not set anything up, the way out. */
export class RenewalStepError extends StepError {
  constructor(
    readonly health: TRenewalHealth,
    reason: TText,
  ) {
    // The tool's output (in `reason`) ends a line: what it means for the site starts the next.
    super('renewal_unavailable', 'renewal', {
      join: [
        { join: [said(note('none')), reason], sep: ' ' },
        { join: [msg('renewal.siteServed'), said(note('noneWayOut'))], sep: ' ' },
      ],
      sep: '\n',
    });
  }
}

/**
 * Last, once the site is verified: finds how the server renews its certificate and sets up a
 * scheduler where there is none (enables certbot's timer or installs Portico's own under systemd;
 * otherwise starts cron, installing the cron package first if needed, and adds a certbot entry),
 * saying in the log what it found and what it installed or wrote where. Where nothing can be set
 * up, throws a RenewalStepError with the reason and the way out: the site is served, but its
 * certificate would expire unrenewed, and saying "deployed" would hide that.
 */
export async function renewalHealthStep(c: TStepContext): Promise<TRenewalHealth> {
  c.log.info(msg('renewal.checking'));
  const found = await probe(c);
  let health: TRenewalHealth | undefined;
  if (found.systemd) health = await underSystemd(c, found);
  if (!health?.working) {
    try {
      health = await withCron(c, found);
    } catch (error) {
      if (!(error instanceof RenewalUnavailable)) throw error;
      throw new RenewalStepError(nothingRenews(), error.reason);
    }
  }
  for (const n of health.notes) c.log.success(said(n));
  return health;
}
