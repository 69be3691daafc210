import type { TRunResult } from '../ssh/run';
import { StepError, withOutput } from './failure';
import { msg } from './messages';
import { asRoot, firstMarked, outputOf, type TStepContext } from './step-context';

/**
 * nginx as a service, with or without systemd. Without systemd nginx runs as a plain daemon: it
 * is started with `nginx` and reloaded with `nginx -s reload`; "running" means its pid file
 * names a live, non-zombie process. A reload only signals the master, so the scripts wait until
 * new worker processes exist (the new configuration is live) before the next step relies on it.
 * The functions use bash's built-ins where the wait repeats them: it looks at every old worker
 * every 20 ms, and a process started for each look (cat, grep, tr) costs the server about a
 * millisecond of CPU. The pid file's path is found once per script.
 */
export const FUNCTIONS = `pidfile() {
  [ -z "\${portico_pidfile:-}" ] || return 0
  p=$(sed -n 's/^[[:space:]]*pid[[:space:]]\\{1,\\}\\([^;[:space:]]*\\);.*/\\1/p' /etc/nginx/nginx.conf 2>/dev/null | head -n 1)
  [ -n "$p" ] || p=$(nginx -V 2>&1 | sed -n 's/.*--pid-path=\\([^ ]*\\).*/\\1/p')
  portico_pidfile=\${p:-/run/nginx.pid}
}
zombie() {
  local k v
  { while read -r k v; do
      [ "$k" = State: ] || continue
      case $v in Z*) return 0 ;; esac
      return 1
    done < "/proc/$1/status"; } 2>/dev/null
  return 1
}
master() {
  local pid=""
  pidfile
  { read -r pid || [ -n "$pid" ]; } 2>/dev/null < "$portico_pidfile" || return 1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && ! zombie "$pid" && echo "$pid"
}
# Sets portico_workers to the master's children: the kernel's list when it keeps one (a read of
# one file, in this shell), else a look through every process (hundreds of files on a busy
# server). A variable, not an echo: a $(…) around it would fork a subshell at each look.
list_workers() {
  portico_workers=""
  if [ -r "/proc/$1/task/$1/children" ]; then
    { read -r portico_workers || :; } 2>/dev/null < "/proc/$1/task/$1/children"
    return
  fi
  portico_workers=$(grep -ls "^PPid:[[:space:]]*$1$" /proc/[0-9]*/status 2>/dev/null | sed 's|^/proc/\\([0-9]*\\)/status$|\\1|' | tr '\\n' ' ')
}
# Waits $1 seconds without starting a process where it can: a read, with a timeout, of a pipe
# this shell holds open and nobody writes to (pause_open makes it). A sleep per look cost a
# loaded server a fork and an exec every 20 ms of every reload.
pause_open() {
  [ -n "\${portico_pause_fd:-}" ] && return 0
  { exec {portico_pause_fd}<> <(:); } 2>/dev/null || portico_pause_fd=""
}
pause() {
  if [ -n "\${portico_pause_fd:-}" ]; then
    read -r -t "$1" -u "$portico_pause_fd" _ 2>/dev/null || :
  else
    sleep "$1"
  fi
}
# An old worker no longer takes new connections: gone, a zombie, or titled "shutting down".
closing() {
  local part title=""
  [ -r "/proc/$1/cmdline" ] || return 0
  zombie "$1" && return 0
  { while IFS= read -r -d '' part || [ -n "$part" ]; do title="$title$part "; done < "/proc/$1/cmdline"; } 2>/dev/null
  case $title in *'shutting down'*) return 0 ;; esac
  return 1
}
unit_active() {
  [ -d /run/systemd/system ] && systemctl is-active --quiet nginx
}
running() {
  unit_active || master >/dev/null
}
start() {
  if [ -d /run/systemd/system ]; then systemctl enable --now nginx 2>&1; else nginx 2>&1; fi
}
`;

export const STATUS_SCRIPT = `${FUNCTIONS}
if command -v nginx >/dev/null 2>&1; then echo PORTICO_NGINX=installed; else echo PORTICO_NGINX=missing; fi
if command -v nginx >/dev/null 2>&1 && running; then echo PORTICO_RUNNING=yes; else echo PORTICO_RUNNING=no; fi
nginx -v 2>&1 | sed 's/^/PORTICO_VERSION=/'`;

const START_SCRIPT = `${FUNCTIONS}
if running; then echo PORTICO_START=already; exit 0; fi
start || exit $?
echo PORTICO_START=started`;

/** Reloads (or starts) nginx and waits; uses `FUNCTIONS`, ends with `exit`. */
export const RELOAD_BODY = `if ! running; then
  start || exit $?
  echo PORTICO_RELOAD=started
  exit 0
fi
m=$(master || true)
old=""
[ -n "$m" ] && list_workers "$m" && old=$portico_workers
# The master re-reads the configuration on SIGHUP, which is all \`nginx -s reload\` (and
# systemd's reload, which runs it) sends, to the pid in this same file; but they first parse the
# whole configuration again, every site's certificate loaded, only to find that pid: with
# hundreds of sites that parse costs seconds (docs/PERFORMANCE.md). \`nginx -t\` gated the change.
# An nginx started by hand on a systemd host is not the unit: it is signalled directly too.
if [ -n "$m" ]; then kill -HUP "$m" 2>&1 || exit $?
elif unit_active; then systemctl reload nginx 2>&1 || exit $?
else nginx -s reload 2>&1 || exit $?; fi
# When the signal went and when new workers were first seen (bash 5's clock; empty before it):
# a reload the engine's limit stops says how far it got (nginx-stall.ts).
echo "PORTICO_RELOAD_AT=signalled \${EPOCHREALTIME:-}"
if [ -z "$m" ] || [ -z "$old" ]; then echo PORTICO_RELOAD=sent; exit 0; fi
# Live means: new workers exist, and every old worker is gone or shutting down (it has closed
# its listening sockets; it may still finish long requests such as WebSockets). The wait ends by
# the clock, not by a count of looks: on a loaded server a look can take a tenth of a second,
# and 500 of them outlasted the engine's limit on one command.
end=$((SECONDS + \${portico_reload_wait_s:-10}))
pause_open
seen=no
while [ $SECONDS -lt $end ]; do
  fresh=no
  list_workers "$m"
  for w in $portico_workers; do
    case " $old " in *" $w "*) ;; *) fresh=yes ;; esac
  done
  if [ $fresh = yes ]; then
    [ $seen = yes ] || { seen=yes; echo "PORTICO_RELOAD_AT=fresh \${EPOCHREALTIME:-}"; }
    settled=yes
    for w in $old; do
      closing "$w" || settled=no
    done
    if [ $settled = yes ]; then echo PORTICO_RELOAD=applied; exit 0; fi
  fi
  pause 0.02
done
echo PORTICO_RELOAD=pending
tail -n 5 /var/log/nginx/error.log 2>/dev/null
exit 0`;

const RELOAD_SCRIPT = `${FUNCTIONS}\n${RELOAD_BODY}`;

export interface TNginxStatus {
  installed: boolean;
  running: boolean;
  version?: string;
}

export async function nginxStatus(c: TStepContext): Promise<TNginxStatus> {
  return parseNginxStatus((await asRoot(c.session, STATUS_SCRIPT)).stdout);
}

/** What `STATUS_SCRIPT` printed (alone or within the remote preflight). */
export function parseNginxStatus(stdout: string): TNginxStatus {
  const version = /nginx\/([0-9.]+)/.exec(firstMarked(stdout, 'PORTICO_VERSION') ?? '')?.[1];
  return {
    installed: firstMarked(stdout, 'PORTICO_NGINX') === 'installed',
    running: firstMarked(stdout, 'PORTICO_RUNNING') === 'yes',
    ...(version ? { version } : {}),
  };
}

export interface TNginxTest {
  ok: boolean;
  output: string;
  /** [warn] lines worth showing (the http2 deprecation notice of nginx ≥ 1.25.1 is not). */
  warnings: string[];
}

export function parseNginxTest(code: number, output: string): TNginxTest {
  const warnings = output
    .split('\n')
    .filter((l) => l.includes('[warn]'))
    .filter((l) => !/"listen \.\.\. http2" directive is deprecated/.test(l));
  return { ok: code === 0, output: output.trim(), warnings };
}

export async function testNginx(c: TStepContext): Promise<TNginxTest> {
  const r = await asRoot(c.session, 'nginx -t 2>&1');
  return parseNginxTest(r.code, outputOf(r));
}

export async function startNginx(c: TStepContext, step: string): Promise<void> {
  c.log.info(msg(c.server.systemd ? 'nginx.startingSystemd' : 'nginx.starting'));
  const r = await asRoot(c.session, START_SCRIPT);
  if (r.code !== 0) {
    throw new StepError(
      'nginx_config_invalid',
      step,
      withOutput(msg('nginx.startFailed'), outputOf(r)),
    );
  }
  c.log.info(
    msg(
      firstMarked(r.stdout, 'PORTICO_START') === 'already'
        ? 'nginx.alreadyRunning'
        : 'nginx.running',
    ),
  );
}

/** Reloads (or starts) nginx and waits until the new configuration is live. */
export async function reloadNginx(c: TStepContext, step: string): Promise<void> {
  logReloading(c);
  reportReload(c, step, await asRoot(c.session, RELOAD_SCRIPT));
}

export function logReloading(c: TStepContext): void {
  c.log.info(msg(c.server.systemd ? 'nginx.reloadingSystemd' : 'nginx.reloadingSignal'));
}

/** What `RELOAD_BODY` printed and its exit code: logged, or the step's failure. */
export function reportReload(c: TStepContext, step: string, r: TRunResult): void {
  const state = firstMarked(r.stdout, 'PORTICO_RELOAD');
  if (r.code !== 0 || !state) {
    throw new StepError(
      'nginx_config_invalid',
      step,
      withOutput(msg('nginx.reloadRefused'), outputOf(r)),
    );
  }
  if (state === 'pending') {
    throw new StepError(
      'nginx_config_invalid',
      step,
      withOutput(msg('nginx.reloadPending'), r.stdout.replace(/^PORTICO_RELOAD(_AT)?=.*$/gm, '')),
    );
  }
  c.log.info(msg(state === 'started' ? 'nginx.startedNow' : 'nginx.reloaded'));
}
