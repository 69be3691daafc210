import { StepError, withOutput } from './failure';
import { joinAnd, msg, quantity } from './messages';
import { checkDns } from './preflight-dns';
import { firewallAdvice, firewalldBlockedPorts, ufwBlockedPorts } from './preflight-firewall';
import { foreignListeners, parseDf, parseListeners } from './preflight-ports';
import { firstMarked, marked, prefixed, type TStepContext } from './step-context';

/** Enough for nginx, certbot and their dependencies, with room for logs. */
const MIN_FREE_KB = 150 * 1024;

export const PORTS_PROBE = `if command -v ss >/dev/null 2>&1; then
  ss -ltnp 2>&1 | sed 's/^/PORTICO_LISTEN:/'
else
  echo PORTICO_SS=missing
fi
df -Pk / /etc /var 2>&1 | sed 's/^/PORTICO_DF:/'
if command -v ufw >/dev/null 2>&1; then ufw status 2>/dev/null | sed 's/^/PORTICO_UFW:/'; fi
if command -v firewall-cmd >/dev/null 2>&1 && firewall-cmd --state >/dev/null 2>&1; then
  echo "PORTICO_FWD_SERVICES=$(firewall-cmd --list-services 2>/dev/null)"
  echo "PORTICO_FWD_PORTS=$(firewall-cmd --list-ports 2>/dev/null)"
fi`;

/**
 * Step 2: who holds ports 80/443, free disk, and the domain's A record. The server's side was
 * gathered by the remote preflight (`PORTS_PROBE` within it): `r.stdout` is its output.
 */
export async function preflight(
  c: TStepContext,
  input: { domain: string; serverIp: string },
  r: { stdout: string },
): Promise<void> {
  c.log.info(msg('preflight.checking'));
  if (marked(r.stdout, 'PORTICO_SS').includes('missing')) {
    c.log.warning(msg('preflight.ssMissing'));
  } else {
    const listenLines = prefixed(r.stdout, 'PORTICO_LISTEN:');
    const found = parseListeners(listenLines.join('\n'));
    const problems = foreignListeners(found);
    if (problems.length > 0) {
      const raw = listenLines.filter((l) => /:(80|443)\s/.test(l)).join('\n');
      throw new StepError(
        'port_in_use',
        'preflight',
        withOutput(msg('preflight.portsBusy', { problems: { join: problems, sep: '; ' } }), raw),
      );
    }
    const ports = [...new Set(found.map((l) => l.port))].sort();
    c.log.info(
      ports.length > 0
        ? msg(ports.length > 1 ? 'preflight.portsNginxOnly' : 'preflight.portNginxOnly', {
            ports: joinAnd(ports),
          })
        : msg('preflight.portsFree'),
    );
  }

  const df = parseDf(prefixed(r.stdout, 'PORTICO_DF:').join('\n'));
  const tight = df.filter((d) => d.availableKb < MIN_FREE_KB);
  if (tight.length > 0) {
    const what = tight.map((d) =>
      msg('preflight.diskFree', { mount: d.mount, mb: quantity(Math.floor(d.availableKb / 1024)) }),
    );
    throw new StepError(
      'disk_full',
      'preflight',
      msg('preflight.diskLow', {
        what: { join: what, sep: ', ' },
        need: quantity(MIN_FREE_KB / 1024),
      }),
    );
  }
  const least = df.reduce((min, d) => Math.min(min, d.availableKb), Number.POSITIVE_INFINITY);
  if (Number.isFinite(least)) {
    c.log.info(msg('preflight.diskOk', { mb: quantity(Math.floor(least / 1024)) }));
  }

  const ufw = prefixed(r.stdout, 'PORTICO_UFW:').join('\n');
  const ufwBlocked = ufwBlockedPorts(ufw);
  if (ufwBlocked.length > 0) c.log.warning(firewallAdvice('ufw', ufwBlocked));
  const services = firstMarked(r.stdout, 'PORTICO_FWD_SERVICES');
  if (services !== undefined) {
    const blocked = firewalldBlockedPorts(
      services,
      firstMarked(r.stdout, 'PORTICO_FWD_PORTS') ?? '',
    );
    if (blocked.length > 0) c.log.warning(firewallAdvice('firewalld', blocked));
  }

  await checkDns(input.domain, input.serverIp, c.settings.dnsServers, c.log);
}
