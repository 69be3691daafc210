import { ACME_EAB_HMAC_PATTERN, ACME_EAB_KID_PATTERN, type TAcmeEab } from '../acme';
import { StepError } from './failure';
import { msg } from './messages';
import { asRoot, type TStepContext } from './step-context';

/**
 * certbot's own config file for External Account Binding: read by `certbot --config`, so the
 * HMAC key never stands in a command line (`ps` on the server, the SSH exec's command), written
 * 0600 by root through SFTP and removed once certbot has run (the account it registered keeps
 * the binding; renewals do not need it).
 */
export const EAB_CONFIG_PATH = '/etc/portico/certbot-eab.ini';

/** The file's content, from values that pass the allowlist; otherwise the step fails. */
export function eabConfigFile(eab: TAcmeEab): string {
  if (!ACME_EAB_KID_PATTERN.test(eab.kid) || !ACME_EAB_HMAC_PATTERN.test(eab.hmacKey)) {
    throw new StepError('invalid_input', 'certificate', msg('certificate.badEab'));
  }
  return `eab-kid = ${eab.kid}\neab-hmac-key = ${eab.hmacKey}\n`;
}

/** certbot's extra arguments for the binding: only the file's path. */
export function eabArgs(eab: TAcmeEab | undefined): string[] {
  return eab ? ['--config', EAB_CONFIG_PATH] : [];
}

/** Runs `work` with the binding's file on the server when settings name one; removes it after. */
export async function withEab<T>(c: TStepContext, work: () => Promise<T>): Promise<T> {
  const eab = c.settings.acmeEab;
  if (!eab) return work();
  const content = eabConfigFile(eab);
  await asRoot(c.session, 'umask 077; mkdir -p /etc/portico && chmod 0700 /etc/portico');
  await c.session.writeFile(EAB_CONFIG_PATH, content, 0o600);
  c.log.info(msg('certificate.eab'));
  try {
    return await work();
  } finally {
    await asRoot(c.session, `rm -f -- ${EAB_CONFIG_PATH}`).catch(() => undefined);
  }
}
