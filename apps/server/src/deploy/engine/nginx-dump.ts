import { prefixed } from './step-context';

// Only the lines Portico looks at: which file is which, server names, the bucket size, and the
// includes (which files the dump came from: its signature below). Marked lines, so that the
// remote preflight can carry them among its other facts; what nginx printed before the first
// file (its test's messages, when they share the stream) is marked as the test's. No character
// classes: the mawk of older Debian releases has none.
const DUMP_AWK = `awk '
/^# configuration file .*:$/ { d = 1 }
!d { print "PORTICO_TEST:" $0; next }
/^# configuration file |^[ \\t]*(server_name|server_names_hash_bucket_size|auth_basic_user_file|include)[ \\t]/ { print "PORTICO_DUMP:" $0 }'`;

export const DUMP_PROBE = `nginx -T 2>/dev/null | ${DUMP_AWK}`;

/**
 * A dump's signature: what `find` says of every file it came from (device, inode, size, times
 * to the nanosecond; a link's own entry too) and of each include pattern's directory (a file
 * added, removed or renamed there changes it), hashed. Any write changes a file's ctime, which
 * no tool can set back. `nginx_watch` takes the main file and the include patterns (relative
 * ones are under the main file's directory, as nginx reads them) and sets `portico_watched` and
 * `portico_files` (the files nginx reads); a pattern with a wildcard in its directory, or with
 * a character outside the allowlist, cannot be watched. `nginx_sign` prints the signature of the
 * dump just read ($1 its marked lines, $2 when the read began) and what it watched, only when
 * nginx read exactly the files the patterns match now and none of them changed since a moment
 * before the read began (a change in the same tick of the clock would leave the same times).
 */
export const DUMP_FUNCTIONS = `nginx_watch() {
  local main=$1 p f
  shift
  portico_watched=("$main") portico_files=("$main")
  for p in "$@"; do
    case $p in /*) ;; *) p="\${main%/*}/$p" ;; esac
    case $p in *[!A-Za-z0-9._/*?@+-]*) return 1 ;; esac
    case \${p%/*} in *[*?]*) return 1 ;; esac
    portico_watched+=("\${p%/*}")
    for f in $p; do
      [ -e "$f" ] || continue
      portico_watched+=("$f")
      portico_files+=("$f")
    done
  done
}
nginx_state() {
  local w
  for w in "\${portico_watched[@]}"; do [ -e "$w" ] || echo "absent $w"; done
  find -L "\${portico_watched[@]}" -maxdepth 0 -printf '%p %D:%i %y %s %T@ %C@\\n' 2>/dev/null
  find "\${portico_watched[@]}" -maxdepth 0 -type l -printf '%p link %i %C@\\n' 2>/dev/null
}
nginx_sig() {
  nginx_watch "$@" || return 0
  nginx_state | sha256sum | cut -d ' ' -f 1
}
nginx_dump_files() {
  printf '%s\\n' "$1" | sed -n 's/^PORTICO_DUMP:# configuration file \\(.*\\):$/\\1/p'
}
nginx_sign() {
  local main state
  local -a patterns
  main=$(nginx_dump_files "$1" | head -n 1)
  [ -n "$main" ] || return 0
  mapfile -t patterns < <(printf '%s\\n' "$1" | sed -n 's/^PORTICO_DUMP:[[:space:]]*include[[:space:]]\\{1,\\}"\\{0,1\\}\\([^";[:space:]]\\{1,\\}\\)"\\{0,1\\}[[:space:]]*;.*$/\\1/p' | awk '!seen[$0]++')
  nginx_watch "$main" "\${patterns[@]}" || return 0
  [ "$(nginx_dump_files "$1" | LC_ALL=C sort -u)" = "$(printf '%s\\n' "\${portico_files[@]}" | LC_ALL=C sort -u)" ] || return 0
  state=$(nginx_state)
  printf '%s\\n' "$state" | awk -v s="$2" '{ t = $NF + 0; if (t > n) n = t } END { exit !(n < s - 0.05) }' || return 0
  printf 'PORTICO_DUMP_SIG=%s\\n' "$(printf '%s\\n' "$state" | sha256sum | cut -d ' ' -f 1)"
  printf 'PORTICO_DUMP_WATCH=%s\\n' "$main" "\${patterns[@]}"
}`;

/**
 * `nginx -T` as a site step's gate (with `DUMP_FUNCTIONS` and nginx-control.ts `FUNCTIONS`): its
 * messages marked as `nginx -t`'s would be (`PORTICO_TEST:`, then `PORTICO_TEST:PORTICO_CODE=`),
 * the dump's lines and, when it passed, their signature; sets rc. It first waits a little longer
 * than the margin `nginx_sign` leaves, so that what the script wrote just before is older.
 */
export const DUMP_TEST = `pause_open
pause 0.06
started=$(date +%s.%N)
tested=$(nginx -T 2>&1 | ${DUMP_AWK}; exit "\${PIPESTATUS[0]}"); rc=$?
printf '%s\\n' "$tested"
echo "PORTICO_TEST:PORTICO_CODE=$rc"
[ "$rc" != 0 ] || nginx_sign "$tested" "$started"`;

/**
 * The dump unless the one Portico holds is still true: $1 that dump's signature (- for none),
 * $2 how many paths it watched, then those paths. Consumes its arguments. Prints
 * `PORTICO_DUMP_SAME=` and that signature, or the dump and (when it can be trusted) its signature.
 */
export const KEPT_DUMP_PART = `held=$1 k=$2
shift 2
watched=("\${@:1:$k}")
shift "$k"
if [ "$held" != - ] && [ "$(nginx_sig "\${watched[@]}")" = "$held" ]; then
  echo "PORTICO_DUMP_SAME=$held"
else
  started=$(date +%s.%N)
  dump=$(${DUMP_PROBE})
  printf '%s\\n' "$dump"
  nginx_sign "$dump" "$started"
fi`;

/** The relevant lines of `nginx -T` from what `DUMP_PROBE` printed. */
export function dumpOf(stdout: string): string {
  return prefixed(stdout, 'PORTICO_DUMP:').join('\n');
}

function eachDirective(text: string, name: string, visit: (file: string, value: string) => void) {
  let file = '';
  const directive = new RegExp(`^\\s*${name}\\s+([^;]*);`);
  for (const line of text.split('\n')) {
    const header = /^# configuration file (.+):$/.exec(line);
    if (header) {
      file = header[1]!;
      continue;
    }
    const m = directive.exec(line);
    if (m) visit(file, m[1]!.trim());
  }
}

/** Every `server_names_hash_bucket_size` in `nginx -T` output, with the file that sets it. */
export function bucketSizeSettings(text: string): { file: string; size: number }[] {
  const found: { file: string; size: number }[] = [];
  eachDirective(text, 'server_names_hash_bucket_size', (file, value) => {
    if (/^\d+$/.test(value)) found.push({ file, size: Number(value) });
  });
  return found;
}

/** Files whose `server_name` lists exactly this domain (exact names beat wildcards in nginx). */
export function serverNameOwners(text: string, domain: string): string[] {
  const files = new Set<string>();
  eachDirective(text, 'server_name', (file, value) => {
    if (value.split(/\s+/).some((name) => name.toLowerCase() === domain)) files.add(file);
  });
  return [...files];
}
