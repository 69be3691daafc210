import { ACME_WEBROOT } from '../nginx-site';
import { PUT_FILE } from '../ssh/write-file';
import { FUNCTIONS, RELOAD_BODY } from './nginx-control';
import { DUMP_FUNCTIONS, DUMP_TEST } from './nginx-dump';
import { SURVEY_PART } from './site-record';

// The group nginx's workers run as (the `user` of nginx.conf; nobody's group without one): a
// private file (basic-auth users) is theirs to read, and no one else's.
export const NGINX_GID = `nginx_gid() {
  u=$(sed -n 's/^[[:space:]]*user[[:space:]][[:space:]]*\\([A-Za-z0-9._-]*\\).*/\\1/p' /etc/nginx/nginx.conf 2>/dev/null | head -n 1)
  id -g -- "\${u:-nobody}" 2>/dev/null || echo 0
}`;

// Runs inside APPLY_SCRIPT with $t (target) and $l (link) set.
const LINK_SCRIPT = `if [ -L "$l" ]; then
  old=$(readlink -- "$l")
  if [ "$old" = "$t" ]; then echo PORTICO_LINK=same; exit 0; fi
  ln -sfn -- "$t" "$l" || exit 1
  printf 'PORTICO_LINK_OLD=%s\\n' "$old"
  echo PORTICO_LINK=replaced
elif [ -e "$l" ]; then
  echo PORTICO_LINK=conflict
else
  ln -s -- "$t" "$l" || exit 1
  echo PORTICO_LINK=created
fi`;

/**
 * Each line of standard input with the prefix $1, passed on as it comes: sed, writing to a pipe,
 * holds its output until it ends, so a script stopped at the engine's limit showed nothing of the
 * part it was in (nginx-stall.ts reads how far it got).
 */
export const PREFIX_LINES = `prefix_lines() {
  local line
  while IFS= read -r line || [ -n "$line" ]; do printf '%s%s\\n' "$1" "$line"; done
}`;

// The whole change in one round trip, each part's output marked so that every failure reads as
// its own command's:
// - the directories a site needs;
// - per file: its mode, group and content as they are now (what a rollback puts back; a link
//   to remove, its target, so a rollback makes the link again rather than a copy), then
//   by its way: `put_file ... sync` (the new bytes renamed in, unless the file already holds
//   them); `private`, the same owned by root and nginx's group with its directory 0750, the
//   content read as one base64 line of standard input (it never appears on a command line);
//   `remove`, the file removed when it is there;
// - the site enabled ($t target, $l link; both empty for the conf.d layout);
// - `nginx -t`, and only if it passes the reload with its wait ($reload = live: no file was
//   written and nginx already runs them, so only a new link needs one); with $dump = dump,
//   `nginx -T` instead (it tests as it dumps), its dump signed for the next run's preflight
//   (nginx-dump-cache.ts), after a pause that puts this script's writes a clock tick behind;
// - the site record's look (SURVEY_PART) once the change is live.
// Arguments: target, link, always|live, test|dump, the number of files, then path, mode
// (octal), way (plain|private|remove) and content (base64; private: on stdin) of each; what is
// left is the look's.
export const APPLY_SCRIPT = `${FUNCTIONS}
${PUT_FILE}
${PREFIX_LINES}
${NGINX_GID}
${DUMP_FUNCTIONS}
umask 022
echo "PORTICO_BEGAN=\${EPOCHREALTIME:-}"
mkdir -p ${ACME_WEBROOT} /etc/nginx/conf.d || { echo PORTICO_PREPARE=failed; exit 0; }
t=$1 l=$2 reload=$3 dump=$4 n=$5
shift 5
wrote=no i=0 gid=""
while [ "$i" -lt "$n" ]; do
  f=$1 mode=$2 way=$3 data=$4
  shift 4
  if [ "$way" = remove ] && [ -L "$f" ]; then
    printf 'PORTICO_PREV=%s link ' "$i"; readlink -- "$f" | tr -d '\\n' | base64 -w0; echo
  elif [ -f "$f" ]; then
    printf 'PORTICO_PREV=%s %s ' "$i" "$(stat -c '%a %g' -- "$f")"; base64 -w0 < "$f"; echo
  else
    echo "PORTICO_PREV=$i absent"
  fi
  tmp="\${f%/*}/.\${f##*/}.portico-$$.tmp"
  case $way in
  remove)
    state=same
    if [ -e "$f" ] || [ -L "$f" ]; then
      rm -f -- "$f" || { echo "PORTICO_WRITE=$i failed"; exit 0; }
      state=removed
    fi ;;
  private)
    IFS= read -r data || true
    [ -n "$gid" ] || gid=$(nginx_gid)
    { mkdir -p -- "\${f%/*}" && chown 0:"$gid" -- "\${f%/*}" && chmod 0750 -- "\${f%/*}" \\
      && state=$(put_file "$f" "$tmp" "$mode" "$data" sync "$gid"); } \\
      || { echo "PORTICO_WRITE=$i failed"; exit 0; } ;;
  *)
    state=$(put_file "$f" "$tmp" "$mode" "$data" sync) || { echo "PORTICO_WRITE=$i failed"; exit 0; } ;;
  esac
  [ "$state" = same ] || wrote=yes
  echo "PORTICO_WRITE=$i $state"
  i=$((i + 1))
done
linked=""
if [ -n "$l" ]; then
  linked=$( (
${LINK_SCRIPT}
  ) ); rc=$?
  printf '%s\\n' "$linked"
  echo "PORTICO_LINK_CODE=$rc"
  [ "$rc" -eq 0 ] || exit 0
  case "$linked" in *PORTICO_LINK=conflict*) exit 0 ;; esac
fi
if [ "$dump" = dump ]; then
${DUMP_TEST}
else
  out=$(nginx -t 2>&1); rc=$?
  printf '%s\\n' "$out" | sed 's/^/PORTICO_TEST:/'
  echo "PORTICO_TEST:PORTICO_CODE=$rc"
fi
[ "$rc" -eq 0 ] || exit 0
skip=no
if [ "$reload" = live ] && [ $wrote = no ]; then
  case "$linked" in *PORTICO_LINK=created*|*PORTICO_LINK=replaced*) ;; *) skip=yes ;; esac
fi
if [ $skip = yes ]; then
  echo PORTICO_RELOAD:PORTICO_SKIP=live
else
  { (
${RELOAD_BODY}
); echo "PORTICO_CODE=$?"; } 2>&1 | prefix_lines PORTICO_RELOAD:
fi
[ "$#" -eq 0 ] || ${SURVEY_PART}
exit 0`;
