import { X509Certificate } from 'node:crypto';
import { isWildcard } from '@portico/shared/certificates/dns-challenge';
import type { TCertificateFacts } from '@portico/shared/certificates/schemas';
import { wildcardCovers } from '@portico/shared/certificates/wildcard-use';
import type { TCertificatePaths } from '../site-names';
import { assertSiteDomain } from '../validate';
import { certificateFacts } from './certificate-files';
import { StepError } from './failure';
import { msg } from './messages';
import { liveDir } from './site-steps';
import { asRoot, type TStepContext } from './step-context';
import type { TSharedWildcard } from './types';

// $1 the lineage's live directory: its certificate when the chain and the key are there too.
const READ_LINEAGE = `d=$1
if [ -f "$d/fullchain.pem" ] && [ -f "$d/privkey.pem" ] && [ -r "$d/cert.pem" ]; then
  cat -- "$d/cert.pem"
else
  echo PORTICO_NO_LINEAGE=1
fi`;

/**
 * Where the holder's certificate lives (certbot's live links, which its renewals move to each
 * new certificate), once the wildcard is known to cover the domain: one label in front of it.
 */
export function sharedWildcardPaths(domain: string, shared: TSharedWildcard): TCertificatePaths {
  const wildcard = assertSiteDomain(shared.domain);
  if (!isWildcard(wildcard) || !wildcardCovers(wildcard, domain)) {
    throw new StepError(
      'invalid_input',
      'validate',
      msg('wildcardUse.notCovered', { domain, wildcard }),
    );
  }
  const dir = liveDir(wildcard);
  return { dir, chain: `${dir}/fullchain.pem`, key: `${dir}/privkey.pem` };
}

/**
 * Before the site names it: the lineage is on the server, with its key, and its certificate
 * covers the domain. Its facts are what the server holds for the site from now on.
 */
export async function checkSharedWildcard(
  c: TStepContext,
  domain: string,
  shared: TSharedWildcard,
): Promise<{ paths: TCertificatePaths; facts: TCertificateFacts }> {
  const paths = sharedWildcardPaths(domain, shared);
  const names = { domain, wildcard: shared.domain, dir: paths.dir };
  const r = await asRoot(c.session, READ_LINEAGE, { args: [paths.dir] });
  const facts = r.code === 0 ? certificateFacts(r.stdout) : null;
  if (!facts) {
    throw new StepError('invalid_input', 'certificate', msg('wildcardUse.missing', names));
  }
  const pem = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(r.stdout)![0];
  if (new X509Certificate(pem).checkHost(domain) === undefined) {
    throw new StepError('invalid_input', 'certificate', msg('wildcardUse.notOnCertificate', names));
  }
  c.log.info(msg('wildcardUse.inUse', { ...names, notAfter: facts.notAfter.slice(0, 10) }));
  return { paths, facts };
}
