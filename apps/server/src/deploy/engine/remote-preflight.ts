import { z } from 'zod';
import { ROOT_CHECK } from './connect-step';
import { OS_PROBE } from './detect-os';
import { StepError, withOutput } from './failure';
import { msg } from './messages';
import { STATUS_SCRIPT } from './nginx-control';
import { DUMP_FUNCTIONS, KEPT_DUMP_PART } from './nginx-dump';
import { keptDumpArgs, type TDumpPlace } from './nginx-dump-cache';
import { PRESENT, SELINUX_STATE } from './packages';
import { PORTS_PROBE } from './preflight';
import { SURVEY_PART, surveyArgs } from './site-record';
import { LAYOUT_PROBE, liveDir } from './site-steps';
import { marked } from './step-context';

/**
 * The remote preflight: one read-only script, run as root right after login (it is also the
 * connect step's root check), that prints every fact the steps up to the HTTP site need, one
 * marked line each: the user id, /etc/os-release, systemd, IPv6, listeners on 80/443, free
 * disk, firewalls, which packages are there, SELinux, nginx's status and version, the site
 * layout, an existing certificate, the relevant lines of `nginx -T` (unless the dump Portico
 * kept from its last run there is still true: nginx-dump-cache.ts) and the site record's first
 * look. Each step then reports its facts from this output as it did from its own probe, so the
 * log and every failure's step stay the same; a round trip per fact is saved (about 100 ms each
 * over a real network). $1 is the domain's live certificate directory (an allowlisted domain,
 * passed as an argument); then the kept dump's arguments; the site record's look takes the rest.
 */
export const REMOTE_PREFLIGHT = [
  ROOT_CHECK,
  OS_PROBE,
  PORTS_PROBE,
  PRESENT,
  SELINUX_STATE,
  STATUS_SCRIPT,
  LAYOUT_PROBE,
  DUMP_FUNCTIONS,
  'shift',
  KEPT_DUMP_PART,
  // The site record's first look (what is left of the arguments), taken here to save its round trip.
  `[ "$#" -eq 0 ] || ${SURVEY_PART}`,
  'echo PORTICO_PREFLIGHT=done',
  'exit 0',
].join('\n');

/** `at`: the server's address and port, when a dump kept for it may stand in for `nginx -T`. */
export function remotePreflightProbe(
  domain: string,
  at?: TDumpPlace,
): { script: string; args: string[] } {
  return {
    script: REMOTE_PREFLIGHT,
    args: [liveDir(domain), ...keptDumpArgs(at), ...surveyArgs(domain)],
  };
}

const yesNo = z.array(z.enum(['yes', 'no'])).max(1);

// The remote side is not trusted: every single-word answer must be one Portico knows. Free-text
// sections (os-release, ss, df, ufw, nginx -T) go through their own parsers, which only match.
const ZPreflightAnswers = z.object({
  PORTICO_PREFLIGHT: z.tuple([z.literal('done')]),
  PORTICO_SYSTEMD: yesNo,
  PORTICO_IPV6: yesNo,
  PORTICO_SS: z.array(z.literal('missing')).max(1),
  PORTICO_HAS: z.array(z.enum(['nginx', 'certbot'])).max(2),
  PORTICO_MISSING: z.array(z.enum(['nginx', 'certbot'])).max(2),
  PORTICO_SELINUX: z.array(z.enum(['off', 'ok'])).max(1),
  PORTICO_NGINX: z.array(z.enum(['installed', 'missing'])).max(1),
  PORTICO_RUNNING: yesNo,
  PORTICO_LAYOUT: z.array(z.enum(['debian', 'rhel'])).max(1),
  PORTICO_CERT: yesNo,
  PORTICO_UPLOADED: yesNo,
  PORTICO_DUMP_SAME: z.array(z.string().regex(/^[0-9a-f]{64}$/)).max(1),
});

/**
 * Checks the preflight's answer before any step reads it: a server that printed something
 * else (a broken shell, a truncated answer) fails here, at `detect-os`, quoting what it said.
 */
export function checkRemotePreflight(stdout: string, stderr = ''): void {
  const answers = Object.fromEntries(
    Object.keys(ZPreflightAnswers.shape).map((key) => [key, marked(stdout, key)]),
  );
  if (!ZPreflightAnswers.safeParse(answers).success) {
    const said = [stderr, stdout].filter((s) => s.trim()).join('\n');
    throw new StepError('internal', 'detect-os', withOutput(msg('preflight.probeFailed'), said));
  }
}
