import {
  DNS_PLUGIN_PACKAGE,
  type TDnsPlugins,
  type TPortHolder,
  type TServerFacts,
  ZServerFacts,
} from '@portico/shared/ssh-servers/facts';

/**
 * The one read-only script a check runs (one exec, one round trip): it writes nothing and asks
 * no password (`sudo -n` only). Each fact is one `key=value` line (a list, one line per item);
 * the parser below trusts none of them. certbot's DNS plugins are read from apt's index with
 * its binary cache kept in memory (`Dir::Cache::pkgcache=`: as root, apt-cache would otherwise
 * write /var/cache/apt), and only when that index lists certbot at all.
 */
// dpkg-query's own `${…}` fields, written through the template.
const D = '$';

export const FACTS_SCRIPT = String.raw`
export PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"
LC_ALL=C; export LC_ALL
k() { printf '%s=%s\n' "$1" "$(printf '%s' "$2" | tr -d '\r\n' | cut -c1-200)"; }
osv() { sed -n "s/^$1=//p" /etc/os-release 2>/dev/null | head -n1 | tr -d "\"'"; }
k os_id "$(osv ID)"
k os_version "$(osv VERSION_ID)"
k os_name "$(osv PRETTY_NAME)"
if [ -d /run/systemd/system ]; then k init systemd
elif [ -x /sbin/openrc-run ] || [ -d /run/openrc ]; then k init openrc
elif [ -d /etc/init.d ]; then k init sysvinit
else k init other; fi
if [ "$(id -u)" = 0 ]; then k root root; asroot=''
elif sudo -n true >/dev/null 2>&1; then k root sudo_nopasswd; asroot='sudo -n'
elif command -v sudo >/dev/null 2>&1 && id -Gn | tr ' ' '\n' | grep -qxE 'sudo|wheel|admin'; then k root sudo_password; asroot=none
else k root none; asroot=none; fi
k nginx_version "$(nginx -v 2>&1 | sed -n 's#^nginx version: [^/]*/\([^ ]*\).*#\1#p')"
if pgrep -x nginx >/dev/null 2>&1; then k nginx_running yes; else k nginx_running no; fi
k certbot_version "$(certbot --version 2>/dev/null | sed -n 's/^certbot //p')"
if systemctl is-active --quiet certbot.timer 2>/dev/null || systemctl is-active --quiet snap.certbot.renew.timer 2>/dev/null; then k renewal certbot_timer
elif { pgrep -x cron || pgrep -x crond; } >/dev/null 2>&1 && grep -qs certbot /etc/crontab /etc/cron.d/* /var/spool/cron/crontabs/* /var/spool/cron/*; then k renewal cron
else k renewal none; fi
for p in 80 443; do
  if [ "$asroot" = none ]; then line=$(ss -Hltn "sport = :$p" 2>/dev/null | head -n1)
  else line=$($asroot ss -Hltnp "sport = :$p" 2>/dev/null | head -n1); fi
  if [ -z "$line" ]; then k "port_$p" free
  else k "port_$p" "listening $(printf '%s' "$line" | sed -n 's/.*users:(("\([^"]*\)".*/\1/p')"; fi
done
k disk_free_kb "$(df -Pk / 2>/dev/null | awk 'NR==2 {print $4}')"
if command -v apt-cache >/dev/null 2>&1 && ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1; then
  names=$(apt-cache -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= pkgnames python3-certbot 2>/dev/null)
  if printf '%s\n' "$names" | grep -qx python3-certbot; then
    k dns_plugins read
    printf '%s\n' "$names" | grep '^python3-certbot-dns-' | sort | head -n 40 | sed 's/^/dns_offered=/'
    dpkg-query -W -f='${D}{Package} ${D}{Status}\n' 'python3-certbot-dns-*' 2>/dev/null |
      awk '$NF == "installed" {print "dns_installed=" $1}' | sort | head -n 40
  fi
fi
`;

/** A script's answer is at most this long; a longer one is refused, not cut. */
const MAX_ANSWER = 8 * 1024;

export class FactsAnswerError extends Error {
  constructor() {
    super('the server answered the facts script with something unreadable');
    this.name = 'FactsAnswerError';
  }
}

/** Each key's first value, and every value of a list's keys. */
function lines(stdout: string): { first: Map<string, string>; all: Map<string, string[]> } {
  if (stdout.length > MAX_ANSWER) throw new FactsAnswerError();
  const first = new Map<string, string>();
  const all = new Map<string, string[]>();
  for (const line of stdout.split('\n')) {
    const match = /^([a-z_0-9]{1,20})=(.*)$/.exec(line.replace(/\r$/, ''));
    if (!match) continue;
    const [, key, value] = match as unknown as [string, string, string];
    if (!first.has(key)) first.set(key, value.slice(0, 200));
    all.set(key, [...(all.get(key) ?? []), value]);
  }
  return { first, all };
}

/** The plugin packages a list's lines name, each allowlisted, once, at most 40. */
function pluginPackages(values: string[] | undefined): string[] {
  const names = (values ?? []).filter((v) => v.length <= 50 && DNS_PLUGIN_PACKAGE.test(v));
  return [...new Set(names)].sort().slice(0, 40);
}

function dnsPlugins(answer: ReturnType<typeof lines>): TDnsPlugins | null {
  if (answer.first.get('dns_plugins') !== 'read') return null;
  const installed = pluginPackages(answer.all.get('dns_installed'));
  // What is installed is offered, whatever the index says now.
  const offered = pluginPackages([...(answer.all.get('dns_offered') ?? []), ...installed]);
  return { installed, offered };
}

/** A value that matches `pattern` whole, else null: a hostile answer becomes "unknown". */
function allowed(value: string | undefined, pattern: RegExp, max: number): string | null {
  if (value === undefined || value === '' || value.length > max) return null;
  return pattern.test(value) ? value : null;
}

function oneOf<T extends string>(value: string | undefined, options: readonly T[], fallback: T): T {
  return options.includes(value as T) ? (value as T) : fallback;
}

function portHolder(port: 80 | 443, value: string | undefined): TPortHolder {
  const listening = value?.startsWith('listening') ?? false;
  const program = listening ? (value ?? '').slice('listening'.length).trim() : '';
  return { port, listening, program: allowed(program, /^[0-9A-Za-z._-]+$/, 32) };
}

const VERSION = /^[0-9A-Za-z.+~-]+$/;

/**
 * The facts in an answer of FACTS_SCRIPT: every field allowlisted and bounded (an unknown or
 * malformed value is null or the safe default), so nothing the server says reaches the page
 * or the database unchecked.
 */
export function parseFacts(stdout: string): TServerFacts {
  const answer = lines(stdout);
  const v = answer.first;
  const diskKb = allowed(v.get('disk_free_kb'), /^\d{1,12}$/, 12);
  const facts: TServerFacts = {
    os: {
      id: allowed(v.get('os_id'), /^[0-9a-z._-]+$/, 40),
      version: allowed(v.get('os_version'), VERSION, 40),
      name: allowed(v.get('os_name'), /^[\p{L}\p{N} ._()/,:+~-]+$/u, 80),
    },
    initSystem: oneOf(v.get('init'), ['systemd', 'openrc', 'sysvinit', 'other'] as const, 'other'),
    rootAccess: oneOf(
      v.get('root'),
      ['root', 'sudo_nopasswd', 'sudo_password', 'none'] as const,
      'none',
    ),
    nginx: {
      version: allowed(v.get('nginx_version'), VERSION, 40),
      running: v.get('nginx_running') === 'yes',
    },
    certbot: { version: allowed(v.get('certbot_version'), VERSION, 40) },
    renewal: oneOf(v.get('renewal'), ['certbot_timer', 'cron', 'none'] as const, 'none'),
    ports: [portHolder(80, v.get('port_80')), portHolder(443, v.get('port_443'))],
    diskFreeBytes: diskKb === null ? null : Number(diskKb) * 1024,
    dnsPlugins: dnsPlugins(answer),
  };
  // The shared schema is the contract the page reads; a parser slip fails here, not there.
  return ZServerFacts.parse(facts);
}
