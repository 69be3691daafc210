import type { TCertificateFacts, TRenewalHealth } from '@portico/shared/certificates/schemas';
import {
  type TCertificatePaths,
  uploadedCertificateDir,
  uploadedCertificatePaths,
} from '../site-names';
import { certificateFacts } from './certificate-files';
import { StepError, withOutput } from './failure';
import { msg } from './messages';
import type { TFileWrite } from './nginx-writes';
import { asRoot, firstMarked, outputOf, type TStepContext } from './step-context';
import type { TUploadedCertificate } from './types';

// Portico's directories are root's alone (umask 077 makes every new one 0700); the chmod also
// closes one an administrator opened. $1 the certificate's own directory, $2 its parent.
const PREPARE = `umask 077
if [ -f "$1/privkey.pem" ]; then echo PORTICO_UPLOAD=present; else echo PORTICO_UPLOAD=new; fi
mkdir -p -- "$1" && chown root:root -- "$1" "$2" && chmod 0700 -- "$1" "$2" "\${2%/*}" "\${2%/*/*}"`;

// $1 the domain's directory; $2 the one directory to keep ('' keeps none: the directory goes).
const PRUNE = `[ -d "$1" ] || exit 0
if [ -z "$2" ]; then rm -rf -- "$1"; echo PORTICO_PRUNED=all; exit; fi
for d in "$1"/*; do
  [ "$d" = "$2" ] || [ ! -e "$d" ] || { rm -rf -- "$d" && echo PORTICO_PRUNED=old; }
done`;

/** Where the upload goes and what it is; null when its chain holds no readable certificate. */
export function uploadedFiles(
  domain: string,
  upload: TUploadedCertificate,
): { paths: TCertificatePaths; facts: TCertificateFacts; writes: TFileWrite[] } | null {
  const facts = certificateFacts(upload.chainPem);
  if (!facts) return null;
  const paths = uploadedCertificatePaths(domain, facts.fingerprint);
  return {
    paths,
    facts,
    writes: [
      { path: paths.chain, content: upload.chainPem, mode: 0o644 },
      { path: paths.key, content: upload.privateKeyPem, mode: 0o600 },
    ],
  };
}

/**
 * Writes the uploaded chain and key where the site will name them: a directory of their own
 * under /etc/portico/certificates, named by the certificate's fingerprint, the key 0600 and
 * root's (through SFTP or a root-owned staging copy, never in a command line). Files already
 * holding these bytes are left alone. A new directory is only named by the site file once the
 * HTTP site step's `nginx -t` accepted it; `created` says whether this run made it.
 */
export async function writeUploadedCertificate(
  c: TStepContext,
  domain: string,
  upload: TUploadedCertificate,
): Promise<{ paths: TCertificatePaths; facts: TCertificateFacts; created: boolean }> {
  const files = uploadedFiles(domain, upload);
  if (!files) {
    throw new StepError('invalid_input', 'http-site', msg('uploaded.unreadable'));
  }
  const { paths, facts } = files;
  c.log.info(msg('uploaded.writing', { domain, dir: paths.dir }));
  const r = await asRoot(c.session, PREPARE, { args: [paths.dir, uploadedCertificateDir(domain)] });
  if (r.code !== 0) {
    throw new StepError(
      'internal',
      'http-site',
      withOutput(msg('uploaded.writeFailed', { dir: paths.dir }), outputOf(r)),
    );
  }
  await c.session.syncFile(paths.chain, upload.chainPem, 0o644);
  await c.session.syncFile(paths.key, upload.privateKeyPem, 0o600);
  return { paths, facts, created: firstMarked(r.stdout, 'PORTICO_UPLOAD') !== 'present' };
}

/**
 * Removes the domain's uploaded certificates but `keep` (none: the whole directory, the proxy is
 * back on certbot's certificate), once the site file no longer names them. True when something
 * went (the caller's record then looks again).
 */
export async function pruneUploadedCertificates(
  c: TStepContext,
  domain: string,
  keep: TCertificatePaths | undefined,
): Promise<boolean> {
  const r = await asRoot(c.session, PRUNE, {
    args: [uploadedCertificateDir(domain), keep?.dir ?? ''],
  });
  if (r.code !== 0) {
    // The site serves what it should; files left behind are only reported.
    c.log.warning(withOutput(msg('uploaded.pruneFailed'), outputOf(r)));
    return false;
  }
  const pruned = firstMarked(r.stdout, 'PORTICO_PRUNED');
  if (pruned === 'all')
    c.log.info(msg('uploaded.removed', { dir: uploadedCertificateDir(domain) }));
  else if (pruned === 'old') c.log.info(msg('uploaded.replaced'));
  return pruned !== undefined;
}

const DROP = `rm -rf -- "$1"; rmdir -- "\${1%/*}" 2>/dev/null; exit 0`;

/** A version this run wrote that no site names (its `nginx -t` failed): removed again. */
export async function dropUnusedUpload(c: TStepContext, paths: TCertificatePaths): Promise<void> {
  // The domain's directory too when that leaves it empty (no earlier upload in it).
  await asRoot(c.session, DROP, { args: [paths.dir] }).catch(() => undefined);
}

/**
 * How an uploaded certificate renews: it does not, the owner uploads the next one. Not a broken
 * renewal (`working` is false, `method` says why), so alerts on expiry stay the reminder.
 */
export function uploadedRenewal(now: Date): TRenewalHealth {
  return {
    method: 'uploaded',
    where: null,
    working: false,
    setUpByPortico: false,
    notes: [{ key: 'certificates.renewal.uploaded' }],
    checkedAt: now.toISOString(),
  };
}
