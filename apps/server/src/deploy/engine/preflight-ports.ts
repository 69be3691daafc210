import type { TText } from '@portico/shared/i18n/text';
import { joinAnd, msg } from './messages';
export interface TListener {
  port: number;
  address: string;
  /** Programs holding the socket, as ss names them; empty when ss could not tell. */
  owners: { program: string; pid: number }[];
}

const WEB_PORTS = new Set([80, 443]);

/** Listeners on ports 80 and 443 from `ss -ltnp` output (with or without its header line). */
export function parseListeners(text: string): TListener[] {
  const found: TListener[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields[0] !== 'LISTEN' || fields.length < 5) continue;
    const local = fields[3]!;
    const port = Number(local.slice(local.lastIndexOf(':') + 1));
    if (!WEB_PORTS.has(port)) continue;
    const owners = [...line.matchAll(/\("([^"]*)",pid=(\d+)/g)].map((m) => ({
      program: m[1]!,
      pid: Number(m[2]),
    }));
    found.push({ port, address: local.slice(0, local.lastIndexOf(':')), owners });
  }
  return found;
}

/** Listeners on 80/443 held by anything other than nginx, described in plain words. */
export function foreignListeners(listeners: TListener[]): TText[] {
  const problems: TText[] = [];
  for (const l of listeners) {
    const others = l.owners.filter((o) => o.program !== 'nginx');
    if (l.owners.length === 0) {
      problems.push(msg('preflight.portUnnamed', { port: l.port, address: l.address }));
    } else if (others.length > 0) {
      const seen = new Map<string, number[]>();
      for (const o of others) seen.set(o.program, [...(seen.get(o.program) ?? []), o.pid]);
      const who = [...seen].map(([program, pids]) => `${program} (pid ${pids.join(', ')})`);
      problems.push(
        msg('preflight.portHeld', {
          port: l.port,
          address: l.address,
          who: joinAnd(who),
        }),
      );
    }
  }
  // The same port on two addresses (0.0.0.0 and [::]) reads once.
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = JSON.stringify(p);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Free kilobytes per mount point from `df -Pk` output. */
export function parseDf(text: string): { mount: string; availableKb: number }[] {
  const rows: { mount: string; availableKb: number }[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 6 || !/^\d+$/.test(fields[3]!)) continue;
    rows.push({ mount: fields.slice(5).join(' '), availableKb: Number(fields[3]) });
  }
  return rows;
}
