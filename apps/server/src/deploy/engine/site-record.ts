import { X509Certificate } from 'node:crypto';
import { LETSENCRYPT_DIR } from '../nginx-site';
import { certName, porticoSiteFiles, sitePaths, uploadedCertificateDir } from '../site-names';
import { certificateFacts } from './certificate-files';
import { asRoot, marked, prefixed, type TStepContext } from './step-context';
import type { TEngineContext, TSiteState } from './types';

// Which of Portico's files for the domain exist (a link counts, even dangling), whether the site
// file is the HTTPS one, the certificate (its PEM, read here for the expiry), and the uploaded
// certificate under $3: the one the site file names, else any still there (a removal takes it).
// A site served with another certbot lineage (a wildcard of the same server, issue 41): the
// lineage its site file names is reported instead of the domain's own (PORTICO_CERT_NAME).
export const SURVEY = `name=$1; le=$2; up=$3; shift 3
for f in "$@"; do
  if [ -L "$f" ] || [ -e "$f" ]; then printf 'PORTICO_FILE=%s\\n' "$f"; fi
done
for f in "$@"; do
  if [ -f "$f" ] && [ ! -L "$f" ] && grep -qs '^[[:space:]]*ssl_certificate[[:space:]]' "$f"; then echo PORTICO_HTTPS=yes; fi
done
s=$(sed -n 's/^[[:space:]]*ssl_certificate[[:space:]]\\{1,\\}\\([^;[:space:]]*\\);.*/\\1/p' "$@" 2>/dev/null | grep -m1 -F "$le/live/")
s=\${s#"$le/live/"}; s=\${s%/fullchain.pem}
case "$s" in '' | */* | .* | "$name") ;; *) name=$s; echo "PORTICO_CERT_NAME=$s" ;; esac
if [ -e "$le/renewal/$name.conf" ] || [ -d "$le/live/$name" ]; then
  echo PORTICO_CERT=yes
  c="$le/live/$name/cert.pem"
  if [ -r "$c" ]; then echo PORTICO_PEM_BEGIN; cat "$c"; echo PORTICO_PEM_END; fi
fi
u=$(sed -n 's/^[[:space:]]*ssl_certificate[[:space:]]\\{1,\\}\\([^;[:space:]]*\\);.*/\\1/p' "$@" 2>/dev/null | grep -m1 -F "$up/")
[ -n "$u" ] || u=$(ls -d "$up"/*/fullchain.pem 2>/dev/null | head -n1)
if [ -n "$u" ] && [ -f "$u" ]; then
  printf 'PORTICO_UPLOAD=%s\\n' "$u"; echo PORTICO_UPLOAD_BEGIN; cat -- "$u"; echo PORTICO_UPLOAD_END
fi
echo PORTICO_SURVEYED=done
exit 0`;

/**
 * The survey as the last part of another root script (one round trip less): its arguments come
 * last in that script's, and its lines are marked so that they never mix with the script's own.
 */
export const SURVEY_PART = `( ${SURVEY} ) 2>/dev/null | sed 's/^/PORTICO_SURVEY:/'`;
const SURVEY_MARK = 'PORTICO_SURVEY:';

/** The survey's arguments for one domain. */
export function surveyArgs(domain: string): string[] {
  return [
    certName(domain),
    LETSENCRYPT_DIR,
    uploadedCertificateDir(domain),
    ...porticoSiteFiles(domain),
  ];
}

/** What a script that ends with `SURVEY_PART` needs: the survey's arguments, and where its output goes. */
export interface TSiteLook {
  args: string[];
  took(stdout: string): void;
}

/** A look at the server is short; a dead connection must not hold the run's end. */
const SURVEY_TIMEOUT_MS = 20_000;

function expiryOf(stdout: string): Date | null {
  const pem = /PORTICO_PEM_BEGIN\n([\s\S]*?)PORTICO_PEM_END/.exec(stdout)?.[1];
  if (!pem) return null;
  try {
    const date = new Date(new X509Certificate(pem).validTo);
    return Number.isNaN(date.getTime()) ? null : date;
  } catch {
    return null;
  }
}

/** The uploaded certificate the look found: its chain's path, fingerprint and expiry. */
export function uploadOf(stdout: string): TSiteState['uploaded'] {
  const path = marked(stdout, 'PORTICO_UPLOAD')[0];
  const pem = /PORTICO_UPLOAD_BEGIN\n([\s\S]*?)PORTICO_UPLOAD_END/.exec(stdout)?.[1];
  const facts = pem ? certificateFacts(pem) : null;
  if (!path) return null;
  return {
    path,
    fingerprint: facts?.fingerprint ?? null,
    expiresAt: facts ? new Date(facts.notAfter) : null,
  };
}

/**
 * Keeps the caller's record of what is on the server for one domain true while a run writes:
 * `announce` before a write (the record then holds at least what the write may leave, and is
 * marked unconfirmed), `survey` after it from a look at the server. Without a caller listening
 * (`onSite` unset) it does nothing.
 */
export class SiteRecord {
  private state: TSiteState;

  constructor(
    private readonly c: TStepContext,
    private readonly domain: string,
    private readonly onSite: TEngineContext['onSite'],
  ) {
    this.state = {
      domain,
      files: [],
      enabled: false,
      https: false,
      certificate: null,
      unconfirmed: false,
    };
  }

  private async report(): Promise<void> {
    await this.onSite?.(
      { ...this.state, files: [...this.state.files] },
      this.c.session.fingerprint,
    );
  }

  /**
   * A look taken by the script that made the change (`SURVEY_PART`), for `around`'s work to pass
   * to it; undefined when no caller listens, so such a script looks at nothing.
   */
  private look(): { look?: TSiteLook; seen: () => string | undefined } {
    if (!this.onSite) return { seen: () => undefined };
    let stdout: string | undefined;
    return {
      look: { args: surveyArgs(this.domain), took: (s) => (stdout = s) },
      seen: () => stdout,
    };
  }

  /**
   * Looks at the server and reports what is there for the domain; from `taken`, the output of
   * a script that ended with the look, when it holds a whole one.
   */
  async survey(taken?: string): Promise<void> {
    if (!this.onSite) return;
    const given = taken === undefined ? '' : prefixed(taken, SURVEY_MARK).join('\n');
    const stdout = marked(given, 'PORTICO_SURVEYED').includes('done')
      ? given
      : await this.lookNow();
    if (stdout === undefined) return;
    // Its own lineage, or the one its site file names (a wildcard of the same server).
    const name = marked(stdout, 'PORTICO_CERT_NAME')[0] ?? certName(this.domain);
    const debian = sitePaths('debian', this.domain);
    const rhel = sitePaths('rhel', this.domain).file;
    const found = marked(stdout, 'PORTICO_FILE');
    // The site file before its link, as a reader lists them.
    const files = [debian.file, debian.enabledLink!, rhel].filter((f) => found.includes(f));
    const enabledBy = [debian.enabledLink!, rhel];
    const hasCert = marked(stdout, 'PORTICO_CERT').includes('yes');
    this.state = {
      domain: this.domain,
      files,
      enabled: files.some((f) => enabledBy.includes(f)),
      https: marked(stdout, 'PORTICO_HTTPS').includes('yes'),
      certificate: hasCert ? { name, expiresAt: expiryOf(stdout) } : null,
      unconfirmed: false,
    };
    const uploaded = uploadOf(stdout);
    if (uploaded) this.state.uploaded = uploaded;
    await this.report();
  }

  private async lookNow(): Promise<string | undefined> {
    const r = await asRoot(this.c.session, SURVEY, {
      args: surveyArgs(this.domain),
      timeoutMs: SURVEY_TIMEOUT_MS,
    });
    return r.code === 0 && marked(r.stdout, 'PORTICO_SURVEYED').includes('done')
      ? r.stdout
      : undefined;
  }

  /** Before a write: the record holds what the write may leave behind, unconfirmed. */
  async announce(change: { files?: string[]; certificate?: boolean }): Promise<void> {
    if (!this.onSite) return;
    const files = [...this.state.files];
    for (const f of change.files ?? []) if (!files.includes(f)) files.push(f);
    const certificate =
      change.certificate && !this.state.certificate
        ? { name: certName(this.domain), expiresAt: null }
        : this.state.certificate;
    this.state = { ...this.state, files, certificate, unconfirmed: true };
    await this.report();
  }

  /**
   * announce, the write, then a look at the server whatever the write's outcome: the one the
   * work took at its end when it could (it passes `look` to its script), else one more.
   */
  async around<T>(
    change: { files?: string[]; certificate?: boolean },
    work: (look?: TSiteLook) => Promise<T>,
  ): Promise<T> {
    await this.announce(change);
    const { look, seen } = this.look();
    try {
      return await work(look);
    } finally {
      // A lost connection fails the look too: the record stays as announced (unconfirmed).
      await this.survey(seen()).catch(() => undefined);
    }
  }
}
