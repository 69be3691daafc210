/**
 * The one script a site scan runs, as root (one exec): it writes nothing, no temporary file
 * either; it only runs `nginx -t`, `nginx -T`, `sha256sum`, `openssl x509` and reads
 * /etc/letsencrypt/renewal. No value from Portico or the user is in it. Each part is one
 * `key=base64` line, so a file's content can never pose as another part; each is cut on the
 * server to a size the parser below reads whole.
 */
export const SCAN_SCRIPT = String.raw`
export PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"
LC_ALL=C; export LC_ALL
b() { head -c "$1" | base64 -w0; printf '\n'; }
t=$(nginx -t 2>&1); x=$?
printf 'nginx_t_exit=%s\n' "$x"
printf 'nginx_t='; printf '%s' "$t" | b 4000
if [ "$x" = 0 ]; then
  d=$(nginx -T 2>/dev/null | head -c 2000001)
else
  d=$(for f in /etc/nginx/nginx.conf /etc/nginx/conf.d/*.conf /etc/nginx/sites-enabled/*; do
    [ -f "$f" ] && { printf '# configuration file %s:\n' "$f"; head -c 200000 "$f"; printf '\n\n'; }
  done | head -c 2000001)
fi
printf 'dump='; printf '%s' "$d" | b 2000001
printf 'hashes='
printf '%s\n' "$d" | sed -n 's/^# configuration file \(\/.*\):$/\1/p' | head -n 2000 |
  while IFS= read -r f; do [ -f "$f" ] && sha256sum -- "$f"; done | b 300000
printf 'certs='
for f in /etc/letsencrypt/renewal/*.conf; do
  [ -f "$f" ] || continue
  n=$(basename -- "$f" .conf)
  c=$(sed -n 's/^cert *= *//p' "$f" | head -n1)
  a=$(sed -n 's/^authenticator *= *//p' "$f" | head -n1)
  i=$(sed -n 's/^installer *= *//p' "$f" | head -n1)
  e=$(openssl x509 -noout -enddate -in "$c" 2>/dev/null | sed 's/^notAfter=//')
  s=$(openssl x509 -noout -ext subjectAltName -in "$c" 2>/dev/null | grep -o 'DNS:[^,]*' | sed 's/^DNS://' | tr '\n' ' ')
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$c" "$a" "$i" "$e" "$s"
done | head -n 500 | b 200000
`;

/** The longest dump read; a longer one is read this far and the scan says it was cut. */
export const MAX_DUMP = 2_000_000;
/** The whole answer: the parts above in base64, and a little more. */
const MAX_ANSWER = 4 * 1024 * 1024;

export class ScanAnswerError extends Error {
  constructor() {
    super('the server answered the scan script with something unreadable');
    this.name = 'ScanAnswerError';
  }
}

export interface TScanAnswer {
  nginxTestExit: number;
  nginxTest: string;
  dump: string;
  truncated: boolean;
  /** sha256 by path, for each file in the dump that is a regular file. */
  hashes: Map<string, string>;
  certificates: {
    name: string;
    path: string;
    authenticator: string;
    installer: string;
    expires: string;
    domains: string[];
  }[];
}

function decode(value: string | undefined): string {
  if (value === undefined || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw new ScanAnswerError();
  return Buffer.from(value, 'base64').toString('utf8');
}

/** The parts of SCAN_SCRIPT's answer; bounded, and refused whole when it is not that shape. */
export function readScanAnswer(stdout: string): TScanAnswer {
  if (stdout.length > MAX_ANSWER) throw new ScanAnswerError();
  const parts = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const match = /^([a-z_]{1,20})=(.*)$/.exec(line.replace(/\r$/, ''));
    if (match && !parts.has(match[1]!)) parts.set(match[1]!, match[2]!);
  }
  const exit = parts.get('nginx_t_exit');
  if (exit === undefined || !/^\d{1,3}$/.test(exit)) throw new ScanAnswerError();
  const fullDump = decode(parts.get('dump'));
  const hashes = new Map<string, string>();
  for (const line of decode(parts.get('hashes')).split('\n')) {
    const match = /^([0-9a-f]{64}) {2}(\/.*)$/.exec(line);
    if (match && !hashes.has(match[2]!)) hashes.set(match[2]!, match[1]!);
  }
  const certificates = decode(parts.get('certs'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [name = '', path = '', authenticator = '', installer = '', expires = '', sans = ''] =
        line.split('\t');
      return {
        name,
        path,
        authenticator,
        installer,
        expires,
        domains: sans.split(' ').filter(Boolean),
      };
    });
  return {
    nginxTestExit: Number(exit),
    nginxTest: decode(parts.get('nginx_t')),
    dump: fullDump.slice(0, MAX_DUMP),
    truncated: fullDump.length > MAX_DUMP,
    hashes,
    certificates,
  };
}
