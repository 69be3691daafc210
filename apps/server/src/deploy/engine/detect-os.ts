import type { TText } from '@portico/shared/i18n/text';
import type { TOsFamily } from '../site-names';
import type { TSshSession } from '../ssh';
import { StepError } from './failure';
import type { EngineLog } from './logger';
import { msg } from './messages';
import { asRoot, firstMarked, marked, prefixed, type TServerFacts } from './step-context';

const DEBIAN = new Set(['debian', 'ubuntu']);
const RHEL = new Set(['rhel', 'centos', 'fedora', 'rocky', 'almalinux', 'ol', 'amzn']);

/** `KEY=value` lines of /etc/os-release, with shell-style quotes removed. */
export function parseOsRelease(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (!m) continue;
    let value = m[2]!;
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.endsWith(quote) && value.length >= 2) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\(["$`\\])/g, '$1');
    }
    fields[m[1]!] = value;
  }
  return fields;
}

/** debian for Debian/Ubuntu and their derivatives, rhel for the Red Hat family, else undefined. */
export function osFamily(fields: Record<string, string>): TOsFamily | undefined {
  const ids = [fields.ID ?? '', ...(fields.ID_LIKE ?? '').split(/\s+/)]
    .map((s) => s.toLowerCase())
    .filter(Boolean);
  if (ids.some((id) => DEBIAN.has(id))) return 'debian';
  if (ids.some((id) => RHEL.has(id))) return 'rhel';
  return undefined;
}

// Every line marked: a login shell's rc files may print to stdout too.
export const OS_PROBE = `if [ -r /etc/os-release ]; then sed 's/^/PORTICO_OS:/' /etc/os-release; fi
if [ -d /run/systemd/system ]; then echo PORTICO_SYSTEMD=yes; else echo PORTICO_SYSTEMD=no; fi
if [ -e /proc/net/if_inet6 ]; then echo PORTICO_IPV6=yes; else echo PORTICO_IPV6=no; fi`;

/** Step 1b: the OS family decides package manager and site paths; systemd decides reloads. */
export async function detectOs(session: TSshSession, log: EngineLog): Promise<TServerFacts> {
  log.info(msg('os.reading'));
  const r = await asRoot(session, OS_PROBE);
  return reportOs(r.stdout, log);
}

/** The OS facts from what `OS_PROBE` printed (alone or within the remote preflight), logged. */
export function reportOs(stdout: string, log: EngineLog): TServerFacts {
  const osText = prefixed(stdout, 'PORTICO_OS:').join('\n');
  const fields = parseOsRelease(osText);
  const name: TText = fields.PRETTY_NAME ?? fields.NAME ?? fields.ID ?? msg('os.unknownSystem');
  const family = osFamily(fields);
  if (!osText) {
    throw new StepError('unsupported_os', 'detect-os', msg('os.noOsRelease'));
  }
  if (!family) {
    throw new StepError(
      'unsupported_os',
      'detect-os',
      msg('os.unsupported', { name, id: fields.ID ?? '?' }),
    );
  }
  const systemd = firstMarked(stdout, 'PORTICO_SYSTEMD') === 'yes';
  const ipv6 = marked(stdout, 'PORTICO_IPV6')[0] !== 'no';
  log.info(
    msg('os.runs', {
      name,
      family: msg(family === 'debian' ? 'os.debianFamily' : 'os.rhelFamily'),
      services: msg(systemd ? 'os.systemd' : 'os.noSystemd'),
      ipv6: ipv6 ? '' : msg('os.noIpv6'),
    }),
  );
  return { family, prettyName: typeof name === 'string' ? name : '', systemd, ipv6 };
}
