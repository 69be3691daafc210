import { StepError, withOutput } from './failure';
import { msg, quantity } from './messages';
import { asRoot, firstMarked, outputOf, type TStepContext } from './step-context';

// $1 the file, $2 its content in base64 (empty: remove the file). The file and its directory
// belong to root and the group nginx's workers run as (the `user` of nginx.conf; nobody's group
// without one), 0640 and 0750: nginx reads the users at each request, no one else can.
const WRITE_HTPASSWD = `set -eu
f=$1 data=$2 d=\${1%/*}
if [ -z "$data" ]; then rm -f -- "$f"; echo PORTICO_HTPASSWD=removed; exit 0; fi
u=$(sed -n 's/^[[:space:]]*user[[:space:]][[:space:]]*\\([A-Za-z0-9._-]*\\).*/\\1/p' /etc/nginx/nginx.conf 2>/dev/null | head -n 1)
g=$(id -gn -- "\${u:-nobody}" 2>/dev/null || echo root)
mkdir -p -- "$d"
chown root:"$g" "$d"
chmod 0750 "$d"
tmp="$d/.\${f##*/}.portico-$$.tmp"
trap 'rm -f -- "$tmp"' EXIT
(umask 077 && printf '%s' "$data" | base64 -d > "$tmp")
chown root:"$g" "$tmp"
chmod 0640 "$tmp"
mv -fT -- "$tmp" "$f"
echo "PORTICO_HTPASSWD=written $g"`;

/**
 * Writes the site's basic-auth users before the site file that names them (or removes the file
 * when the site has none). User names and hashes passed the allowlist (`user:$6$…` only).
 */
export async function htpasswdStep(
  c: TStepContext,
  step: string,
  path: string,
  content: string,
): Promise<void> {
  const users = content.split('\n').filter(Boolean);
  const r = await asRoot(c.session, WRITE_HTPASSWD, {
    args: [path, Buffer.from(content, 'utf8').toString('base64')],
  });
  const state = firstMarked(r.stdout, 'PORTICO_HTPASSWD');
  if (r.code !== 0 || !state) {
    throw new StepError(
      'internal',
      step,
      withOutput(msg('nginx.writeFailed', { path }), outputOf(r)),
    );
  }
  if (users.length > 0)
    c.log.info(msg('site.basicAuthUsers', { path, count: quantity(users.length) }));
}
