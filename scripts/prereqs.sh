#!/usr/bin/env bash
# Installs the Debian packages the test tiers need (lab servers, browser, PostgreSQL) when they
# are missing. Under CI=true a package that cannot be installed fails the run; elsewhere the
# tiers that need it skip themselves with one line saying why.
set -u
packages=(
  chromium fonts-dejavu-core
  openssh-server nginx certbot python3-certbot-nginx pebble dnsmasq iproute2 sudo openssl curl jq cron
  bind9 bind9-dnsutils python3-certbot-dns-rfc2136
  postgresql
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  msg="prereqs: cannot install ${missing[*]} (needs root and apt-get)"
  if [ "${CI:-}" = true ]; then echo "$msg" >&2; exit 1; fi
  echo "$msg; the tiers that need them will be skipped"
  exit 0
fi

echo "prereqs: installing ${missing[*]}"
# Installing must not start daemons on the real machine (nginx on :80, dnsmasq on :53).
policy=/usr/sbin/policy-rc.d
own_policy=false
if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' >"$policy"; chmod +x "$policy"; own_policy=true; fi
export DEBIAN_FRONTEND=noninteractive
ok=true
apt-get update -q >/tmp/portico-apt.log 2>&1 || ok=false
$ok && apt-get install -y -q --no-install-recommends "${missing[@]}" >>/tmp/portico-apt.log 2>&1 || ok=false
$own_policy && rm -f "$policy"
if ! $ok; then
  tail -n 20 /tmp/portico-apt.log >&2
  if [ "${CI:-}" = true ]; then echo "prereqs: apt-get failed" >&2; exit 1; fi
  echo "prereqs: apt-get failed; the tiers that need these packages will be skipped"
fi
exit 0
