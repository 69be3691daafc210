import type { TCertificateAction } from '@portico/shared/certificates/schemas';
import { LETS_ENCRYPT_DIRECTORY } from '../acme';
import { certName } from '../site-names';
import { assertSiteDomain } from '../validate';
import {
  AWAIT_OTHER_CERTBOT,
  certbotFailure,
  runCertbot,
  uploadCaBundle,
  validUrl,
} from './certificate';
import { readServerCertificate } from './certificate-files';
import { StepError, toFailure, withOutput } from './failure';
import { EngineLog } from './logger';
import { msg } from './messages';
import { reloadNginx } from './nginx-control';
import { onServer } from './server-address';
import { ServerVisit } from './server-visit';
import type { TStepContext } from './step-context';
import type { TCertificateActionInput, TCertificateActionOutcome, TEngineContext } from './types';

// Values arrive as arguments, quoted by the SSH layer; the CA bundle path first (may be empty).
const CERTBOT_RENEW = `${AWAIT_OTHER_CERTBOT}
bundle=$1; shift
if [ -n "$bundle" ]; then export REQUESTS_CA_BUNDLE="$bundle"; fi
exec certbot renew "$@" 2>&1`;

/**
 * `certbot renew --dry-run` asks Let's Encrypt's staging server unless told otherwise: any other
 * CA must be named, or the test would ask a CA the certificate never came from.
 */
function dryRunServer(c: TStepContext): string[] {
  let server: string;
  try {
    server = validUrl(c.settings.acmeDirectoryUrl);
  } catch {
    throw new StepError('invalid_input', 'renewal', msg('certificate.badAcmeUrl'));
  }
  return server === LETS_ENCRYPT_DIRECTORY ? [] : ['--server', server];
}

async function certbotRenew(
  c: TStepContext,
  domain: string,
  action: TCertificateAction,
): Promise<void> {
  const name = certName(domain);
  const bundle = await uploadCaBundle(c);
  const args =
    action === 'renew_test'
      ? ['--dry-run', ...dryRunServer(c)]
      : // --force-renewal: "Renew now" renews whether or not certbot thinks it is due.
        ['--force-renewal'];
  c.log.info(msg(action === 'renew_test' ? 'certAction.testing' : 'certAction.renewing', { name }));
  const r = await runCertbot(
    c,
    CERTBOT_RENEW,
    [bundle, '--cert-name', name, '--no-random-sleep-on-renew', '--non-interactive', ...args],
    'renewal',
  );
  if (r.code !== 0) {
    const { output, hint } = certbotFailure(r, domain, c.settings.acmeDirectoryUrl);
    const key = action === 'renew_test' ? 'certAction.testFailed' : 'certAction.renewFailed';
    throw new StepError('certbot_failed', 'renewal', withOutput(msg(key, { name, hint }), output));
  }
}

/**
 * The certificate actions of the details page, on the server over SSH: "Test renewal" runs
 * `certbot renew --dry-run` for this certificate only (nothing changes on the server); "Renew
 * now" renews it with --force-renewal and reloads nginx. Both end by reading certbot's current
 * certificate, which the caller compares with the one Portico then sees served. Never throws.
 */
export async function runCertificateAction(
  input: TCertificateActionInput,
  ctx: TEngineContext,
): Promise<TCertificateActionOutcome> {
  const log = new EngineLog(ctx.log, ctx.settings.language);
  return onServer(input, ctx, log, (resolved, held) => act(resolved, held, log));
}

async function act(
  input: TCertificateActionInput,
  ctx: TEngineContext,
  log: EngineLog,
): Promise<TCertificateActionOutcome> {
  const visit = new ServerVisit(ctx, log);
  try {
    const domain = assertSiteDomain(input.domain);
    const c = await visit.open(input);
    visit.step = 'renewal';
    const name = certName(domain);
    if (!(await readServerCertificate(c, domain))) {
      throw new StepError('certbot_failed', visit.step, msg('certAction.noCertificate', { name }));
    }
    await certbotRenew(c, domain, input.action);
    if (input.action === 'renew') {
      visit.step = 'reload';
      await reloadNginx(c, visit.step);
    }
    const onServerNow = await readServerCertificate(c, domain);
    if (onServerNow) {
      log.info(
        msg('certAction.onServer', {
          name,
          notAfter: { date: onServerNow.notAfter },
          fingerprint: onServerNow.fingerprint,
        }),
      );
    }
    if (input.action === 'renew_test') log.success(msg('certAction.testPassed', { name }));
    else log.success(msg('certAction.renewed', { name }));
    await log.flush();
    return {
      status: 'completed',
      hostKeyFingerprint: c.session.fingerprint,
      onServer: onServerNow,
    };
  } catch (error) {
    const failure = toFailure(error, visit.step, log, ctx.signal);
    log.error(failure.text);
    await log.flush();
    let onServerNow = null;
    // What certbot holds now, when the connection still works (a renewal may have happened).
    const { session } = visit;
    if (session && visit.step !== 'connect' && !ctx.signal?.aborted) {
      onServerNow = await readServerCertificate({ session }, input.domain).catch(() => null);
    }
    return {
      status: 'failed',
      ...(session ? { hostKeyFingerprint: session.fingerprint } : {}),
      failure,
      onServer: onServerNow,
    };
  } finally {
    visit.close();
  }
}
