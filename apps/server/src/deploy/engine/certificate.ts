import { readFile } from 'node:fs/promises';
import type { TText } from '@portico/shared/i18n/text';
import { ACME_PROFILE_PATTERN } from '../acme';
import { ACME_WEBROOT } from '../nginx-site';
import { certName } from '../site-names';
import { SshError } from '../ssh';
import type { TRunResult } from '../ssh/run';
import { assertEmail } from '../validate';
import { eabArgs, withEab } from './acme-eab';
import {
  certbotFeaturesLine,
  PROFILES_SINCE,
  parseCertbotVersion,
  VERSION_MARK,
} from './certbot-features';
import {
  certificateNames,
  dnsCertbotArgs,
  pruneDnsCredentials,
  type TDnsChallenge,
  writeDnsCredentials,
} from './dns-challenge';
import { StepError, withOutput } from './failure';
import { msg, quantity } from './messages';
import { SURVEY_PART, type TSiteLook } from './site-record';
import { asRoot, type TStepContext } from './step-context';

/**
 * What certbot runs after each renewal (and after the first issuance): reloads nginx, with or
 * without systemd, when a file under /etc/nginx names the certificate's directory
 * (`$RENEWED_LINEAGE`, set by certbot). At the first issuance no site uses the certificate yet
 * and the deployment reloads nginx itself once the HTTPS site is written, so that reload would
 * be for nothing. Constant: no user value in it.
 */
const RENEW_DEPLOY_HOOK =
  'sh -c \'grep -rqsF -- "$RENEWED_LINEAGE/" /etc/nginx || exit 0; if [ -d /run/systemd/system ]; then systemctl reload nginx; else nginx -s reload 2>/dev/null || nginx -s reload; fi\'';

/** Where a test CA bundle for certbot goes on the server (only when settings ask for one). */
const SERVER_CA_BUNDLE = '/etc/letsencrypt/portico-acme-ca.pem';

/** How long a certbot script waits for another certbot on the server to finish. */
export const CERTBOT_WAIT_S = 120;
const BUSY_MARK = 'PORTICO_CERTBOT_BUSY';
const STILL_MARK = 'PORTICO_CERTBOT_STILL';

/**
 * certbot works one at a time on a server (it locks its directories), and another one may be at
 * work: the renewal timer, or the certbot of a run whose Portico stopped mid-request (it goes on
 * without the SSH session). Ours would fail at once ("Another instance of Certbot is already
 * running"), so every certbot script first waits for the others, saying so once (BUSY_MARK).
 * A certbot is a process whose first argument is certbot's path, or its python's and then certbot's;
 * only shell builtins read /proc, so a server with many processes checks them in milliseconds.
 */
export const AWAIT_OTHER_CERTBOT = `certbot_running() {
  local p a b
  for p in /proc/[0-9]*; do
    [ "\${p#/proc/}" = "$$" ] && continue
    a='' b=''
    { IFS= read -r -d '' a; IFS= read -r -d '' b; } 2>/dev/null < "$p/cmdline"
    case "$a" in
      certbot | */certbot) return 0 ;;
      python* | */python*) case "$b" in certbot | */certbot) return 0 ;; esac ;;
    esac
  done
  return 1
}
i=0
while certbot_running && [ $i -lt ${CERTBOT_WAIT_S * 5} ]; do
  [ $i -eq 0 ] && echo ${BUSY_MARK}
  # A line a second: once the connection that started this is gone (the run was stopped), the
  # write fails and the wait ends here, so a stopped run never goes on to act on the server.
  if [ $((i % 5)) -eq 4 ]; then echo ${STILL_MARK} || exit 1; fi
  sleep 0.2
  i=$((i + 1))
done`;

// All values arrive as arguments ($1…), quoted by the SSH layer after validation here. $2 holds
// the site record's look's arguments as words (allowlisted paths and names, no blanks): the
// look follows certbot in the same round trip.
// $3 the ACME profile to ask for ('' for none) and $4 the certbot version that has profiles
// ("4.0"): certbot refuses a flag it does not know, so the profile goes only to one that has it,
// and the version goes into the output first (VERSION_MARK) for the log's line on it.
const CERTBOT = `${AWAIT_OTHER_CERTBOT}
bundle=$1 look=$2 profile=$3 since=$4; shift 4
if [ -n "$bundle" ]; then export REQUESTS_CA_BUNDLE="$bundle"; fi
v=$(certbot --version 2>&1); v=\${v#certbot }
echo "${VERSION_MARK}$v"
maj=\${v%%.*} rest=\${v#*.}; min=\${rest%%.*}
case "$maj.$min" in *[!0-9.]* | .* | *.) maj=0 min=0 ;; esac
if [ -n "$profile" ] && { [ "$maj" -gt "\${since%.*}" ] || { [ "$maj" -eq "\${since%.*}" ] && [ "$min" -ge "\${since#*.}" ]; }; }; then
  set -- "$@" --preferred-profile "$profile"
fi
certbot certonly "$@" 2>&1; rc=$?
if [ -n "$look" ]; then
  set -f; set -- $look
  ${SURVEY_PART}
fi
exit $rc`;

/** The look's arguments as one word list for `CERTBOT`'s $2. */
function lookWords(look: TSiteLook | undefined): string {
  if (!look) return '';
  if (look.args.some((a) => !/^[A-Za-z0-9._@+/-]+$/.test(a)))
    throw new Error('unsafe look argument');
  return look.args.join(' ');
}

const CHALLENGE_TROUBLE =
  /failed to authenticate|challenge|unauthorized|connection refused|timeout|dns|rate ?limit|too many/i;

// certbot's ACME client failing to talk to the CA itself (down, unreachable, TLS not trusted):
// "Requesting HOST/PATH: Connection refused", or requests' own ConnectionError/SSLError text.
const CA_UNREACHABLE =
  /Requesting \S+: ?\S|HTTPSConnectionPool\(host=|Max retries exceeded|Failed to establish a new connection/;

export const CERTBOT_TIMEOUT_MS = 5 * 60_000;

/** certbot's lines that are noise in a failure message. */
const NOISE = [
  /^Saving debug log to /,
  /^Ask for help or search for solutions at /,
  new RegExp(`^(${BUSY_MARK}|${STILL_MARK})$`),
  /^PORTICO_SURVEY:/,
  new RegExp(`^${VERSION_MARK}`),
];
/** certbot's lines that are noise in the log (banners, donation requests). */
const CHATTER = [/^(- )+-\s*$/, /^If you like Certbot/, /^ \* Donating to /];

export function certbotReason(output: string): string {
  return output
    .split('\n')
    .filter((l) => !NOISE.some((re) => re.test(l.trim())))
    .join('\n');
}

/** Which cause certbot's output points at, for the hint in the failure message. */
export function certbotHintKey(
  output: string,
  dns = false,
): 'busyHint' | 'caUnreachableHint' | 'challengeHint' | 'dnsChallengeHint' | undefined {
  if (/Another instance of Certbot is already running/i.test(output)) return 'busyHint';
  // Then: "Connection refused" from the CA itself would otherwise read as a challenge problem.
  if (CA_UNREACHABLE.test(output)) return 'caUnreachableHint';
  if (CHALLENGE_TROUBLE.test(output)) return dns ? 'dnsChallengeHint' : 'challengeHint';
  return undefined;
}

export function validUrl(value: string): string {
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('bad scheme');
  if (/[\s'"\\]/.test(value)) throw new Error('bad characters');
  return url.toString();
}

/** The test CA bundle certbot must trust, copied to the server when settings name one. */
export async function uploadCaBundle(c: TStepContext): Promise<string> {
  if (!c.settings.acmeCaBundleOnServer) return '';
  const pem = await readFile(c.settings.acmeCaBundleOnServer, 'utf8');
  await c.session.syncFile(SERVER_CA_BUNDLE, pem, 0o644);
  return SERVER_CA_BUNDLE;
}

/**
 * certbot's output line by line into the log, without its banners; the wait in our words, and
 * (where the script prints certbot's version) which of ACME profiles and ARI this certbot uses.
 */
export function certbotLines(c: Pick<TStepContext, 'log' | 'settings'>) {
  const log = c.log.stream('certbot');
  return (stream: 'stdout' | 'stderr', line: string) => {
    if (line === BUSY_MARK)
      c.log.info(msg('certificate.waitingOther', { seconds: CERTBOT_WAIT_S }));
    else if (line.startsWith(VERSION_MARK)) {
      const version = parseCertbotVersion(line.slice(VERSION_MARK.length));
      c.log.info(certbotFeaturesLine(version, c.settings.acmeProfile));
    } else if (line === STILL_MARK || line.startsWith('PORTICO_SURVEY:')) return;
    else if (!CHATTER.some((re) => re.test(line))) log(stream, line);
  };
}

/**
 * A certbot script as root, its output streamed into the log; certbot hanging (an unreachable
 * CA) past the limit fails `step` with words saying so.
 */
export function runCertbot(
  c: TStepContext,
  script: string,
  args: string[],
  step: string,
): Promise<TRunResult> {
  return asRoot(c.session, script, {
    args,
    onLine: certbotLines(c),
    timeoutMs: CERTBOT_TIMEOUT_MS,
  }).catch((error: unknown) => {
    if (error instanceof SshError && error.code === 'timeout') {
      throw new StepError(
        'certbot_failed',
        step,
        msg('certificate.timeout', { minutes: quantity(CERTBOT_TIMEOUT_MS / 60_000) }),
      );
    }
    throw error;
  });
}

/** What a failed certbot said (noise removed), and the hint its words point at. */
export function certbotFailure(
  r: TRunResult,
  domain: string,
  server: string,
  dns = false,
): { output: string; hint: TText } {
  const output = certbotReason(r.stdout || r.stderr);
  const hintKey = certbotHintKey(output, dns);
  const hint = hintKey
    ? msg(`certificate.${hintKey}`, { domain, server, seconds: String(CERTBOT_WAIT_S) })
    : '';
  return { output, hint };
}

/**
 * Step 5: a certificate from the ACME server through the webroot (HTTP-01), or through the DNS
 * provider's certbot plugin (DNS-01, `dns`), kept while still valid.
 */
export async function certificateStep(
  c: TStepContext,
  domain: string,
  email: string,
  look?: TSiteLook,
  dns?: TDnsChallenge,
): Promise<{ kept: boolean }> {
  const mail = assertEmail(email);
  let server: string;
  try {
    server = validUrl(c.settings.acmeDirectoryUrl);
  } catch {
    throw new StepError('invalid_input', 'certificate', msg('certificate.badAcmeUrl'));
  }
  const profile = c.settings.acmeProfile ?? '';
  if (profile && !ACME_PROFILE_PATTERN.test(profile)) {
    throw new StepError('invalid_input', 'certificate', msg('certificate.badAcmeProfile'));
  }
  const bundle = await uploadCaBundle(c);
  const credentials = dns ? await writeDnsCredentials(c, dns) : undefined;
  const how =
    dns && credentials
      ? dnsCertbotArgs(dns, credentials, c.settings.dnsPropagationSeconds)
      : ['--webroot', '-w', ACME_WEBROOT];
  const names = certificateNames(domain, dns);
  const args = [
    bundle,
    lookWords(look),
    profile,
    PROFILES_SINCE.join('.'),
    ...how,
    ...names.flatMap((name) => ['-d', name]),
    '--cert-name',
    certName(domain),
    '--server',
    server,
    ...eabArgs(c.settings.acmeEab),
    '--email',
    mail,
    '--agree-tos',
    '--no-eff-email',
    '--non-interactive',
    '--keep-until-expiring',
    '--deploy-hook',
    RENEW_DEPLOY_HOOK,
  ];
  if (dns && credentials) {
    const provider = dns.credentials.provider;
    c.log.info(msg('dns01.requesting', { names: names.join(', '), server, provider }));
  } else {
    c.log.info(msg('certificate.requesting', { domain, server }));
  }
  const r = await withEab(c, () => runCertbot(c, CERTBOT, args, 'certificate'));
  look?.took(r.stdout);
  // Files of earlier credentials (changed since, or a proxy gone) that no renewal names now.
  if (dns) await pruneDnsCredentials(c);
  if (r.code !== 0) {
    const { output, hint } = certbotFailure(r, domain, server, dns !== undefined);
    const exitNote = r.code === 127 ? msg('certificate.notInstalled') : '';
    throw new StepError(
      'certbot_failed',
      'certificate',
      withOutput(msg('certificate.failed', { domain, exitNote, hint }), output),
    );
  }
  if (/not yet due for renewal|Keeping the existing certificate/i.test(r.stdout)) {
    c.log.info(msg('certificate.kept', { domain }));
    return { kept: true };
  }
  c.log.success(msg('certificate.obtained', { domain }));
  return { kept: false };
}
