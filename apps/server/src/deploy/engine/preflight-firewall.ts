import type { TText } from '@portico/shared/i18n/text';
import { joinAnd, msg } from './messages';

/**
 * Host firewalls that would keep the certificate authority (port 80) or visitors (443) out:
 * ufw on Ubuntu/Debian, firewalld on the Red Hat family. Portico does not open ports on its
 * own; it warns with the exact command, and certbot's failure then carries the same hint.
 */
const UFW_ALIASES: Record<number, RegExp> = {
  80: /\b80\b|Nginx (HTTP|Full)\b|WWW( Full)?\b|Apache( Full)?\b/i,
  443: /\b443\b|Nginx (HTTPS|Full)\b|WWW (Secure|Full)\b|Apache (Secure|Full)\b/i,
};

/** Ports (80, 443) an active ufw does not allow; empty when ufw is inactive. */
export function ufwBlockedPorts(status: string): number[] {
  if (!/^Status:\s*active/m.test(status)) return [];
  const allows = status.split('\n').filter((l) => /\bALLOW\b/.test(l) && !/\(v6\)/.test(l));
  return [80, 443].filter(
    (port) => !allows.some((l) => UFW_ALIASES[port]!.test(l.split(/\s+ALLOW/)[0]!)),
  );
}

/** Ports (80, 443) a running firewalld zone allows neither by service nor by port. */
export function firewalldBlockedPorts(services: string, ports: string): number[] {
  const names = services.split(/\s+/);
  const open = ports.split(/\s+/);
  const byService: Record<number, string> = { 80: 'http', 443: 'https' };
  return [80, 443].filter(
    (port) => !names.includes(byService[port]!) && !open.includes(`${port}/tcp`),
  );
}

export function firewallAdvice(tool: 'ufw' | 'firewalld', ports: number[]): TText {
  const list = joinAnd(ports);
  const command =
    tool === 'ufw'
      ? ports.map((p) => `ufw allow ${p}/tcp`).join(' && ')
      : `${ports.map((p) => `firewall-cmd --permanent --add-service=${p === 80 ? 'http' : 'https'}`).join(' && ')} && firewall-cmd --reload`;
  const key = ports.length > 1 ? 'preflight.firewallMany' : 'preflight.firewallOne';
  return msg(key, { tool, ports: list, command });
}
