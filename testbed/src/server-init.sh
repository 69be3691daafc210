#!/bin/bash
# PID 1 of a lab test server, run as
#   ip netns exec NS unshare --mount --uts --pid --fork --mount-proc bash server-init.sh DIR
# DIR (on the real machine) holds server.env, passwords, the host key and the CA to trust.
# Everything written here lands in copy-on-write overlays or private tmpfs: the real /etc,
# /usr, /var, /home and /root stay untouched. A namespace PID 1 ignores signals it has no
# handler for, so TERM is trapped; bash also reaps the orphans reparented to it.
set -euo pipefail
dir=$1
# shellcheck source=/dev/null
. "$dir/server.env" # LAB_HOSTNAME LAB_DNS LAB_VARIANTS LAB_SERVER_NAME LAB_LEGACY_DOMAIN
cd /

has_variant() { case " $LAB_VARIANTS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# Private, empty homes and scratch space first: useradd -m must not write to the real /home.
mount -t tmpfs -o mode=0755 lab-home /home
mount -t tmpfs -o mode=0700 lab-root /root
mount -t tmpfs -o mode=1777 lab-tmp /tmp
mount -t tmpfs -o mode=0755 lab-mnt /mnt
mount -t tmpfs -o mode=0755 lab-media /media
for d in etc usr var opt srv; do
  mkdir -p "$dir/upper/$d" "$dir/work/$d"
  mount -t overlay "lab-$d" -o "lowerdir=/$d,upperdir=$dir/upper/$d,workdir=$dir/work/$d" "/$d"
done

hostname "$LAB_HOSTNAME"
echo "$LAB_HOSTNAME" >/etc/hostname
printf '127.0.0.1\tlocalhost\n127.0.1.1\t%s\n::1\tlocalhost ip6-localhost ip6-loopback\n' \
  "$LAB_HOSTNAME" >/etc/hosts
rm -f /etc/resolv.conf
echo "nameserver $LAB_DNS" >/etc/resolv.conf

# certbot must trust the ACME server's own HTTPS listener.
install -m 0644 "$dir/listener-ca.pem" /usr/local/share/ca-certificates/portico-lab-acme.crt
cat "$dir/listener-ca.pem" >>/etc/ssl/certs/ca-certificates.crt

useradd --create-home --shell /bin/bash --groups sudo deploy
chpasswd --encrypted <"$dir/passwords"

rm -f /etc/ssh/ssh_host_*
install -m 0600 "$dir/ssh_host_ed25519_key" /etc/ssh/ssh_host_ed25519_key
install -m 0644 "$dir/ssh_host_ed25519_key.pub" /etc/ssh/ssh_host_ed25519_key.pub
root_login=yes
if has_variant no-root-login; then root_login=no; fi
# As many cloud images ship: keys only (root's and deploy's authorized_keys start empty).
password_login=yes
if has_variant no-password-login; then password_login=no; fi
cat >/etc/ssh/sshd_config.d/00-portico-lab.conf <<CONF
HostKey /etc/ssh/ssh_host_ed25519_key
PermitRootLogin $root_login
PasswordAuthentication $password_login
KbdInteractiveAuthentication no
UseDNS no
CONF

if has_variant existing-site; then
  mkdir -p /var/www/legacy
  echo "legacy site on $LAB_SERVER_NAME" >/var/www/legacy/index.html
  cat >/etc/nginx/sites-available/legacy-site <<CONF
server {
    listen 80;
    server_name $LAB_LEGACY_DOMAIN;
    root /var/www/legacy;
    index index.html;
}
CONF
  ln -s /etc/nginx/sites-available/legacy-site /etc/nginx/sites-enabled/legacy-site
fi

if has_variant hand-sites; then
  zone="$LAB_SERVER_NAME.portico.test"
  mkdir -p /var/www/h-static
  echo "static site on $LAB_SERVER_NAME" >/var/www/h-static/index.html
  # The proxies' upstreams answer (started below), so a site's answer has a body of its own.
  for p in 8081 8082 8083 8084; do
    mkdir -p "/var/www/h-up-$p" && echo "upstream $p on $LAB_SERVER_NAME" >"/var/www/h-up-$p/index.html"
  done
  cat >/etc/nginx/sites-available/h-proxy <<CONF
server {
    listen 80;
    server_name h-proxy.$zone;
    location / {
        proxy_pass http://127.0.0.1:8081;
        proxy_set_header Host \$host;
    }
}
CONF
  ln -s /etc/nginx/sites-available/h-proxy /etc/nginx/sites-enabled/h-proxy
  cat >/etc/nginx/sites-available/h-static <<CONF
server {
    listen 80;
    server_name h-static.$zone;
    root /var/www/h-static;
    index index.html;
}
CONF
  ln -s /etc/nginx/sites-available/h-static /etc/nginx/sites-enabled/h-static
  cat >/etc/nginx/snippets/h-split-proxy.conf <<CONF
location / {
    proxy_pass http://127.0.0.1:8083;
}
CONF
  cat >/etc/nginx/conf.d/h-split.conf <<CONF
server {
    listen 80;
    server_name h-split.$zone;
    include snippets/h-split-proxy.conf;
}
CONF
  cat >/etc/nginx/sites-enabled/h-two <<CONF
server {
    listen 80;
    server_name h-two-a.$zone h-two-b.$zone;
    location / { proxy_pass http://127.0.0.1:8084; }
}
CONF
  cat >/etc/nginx/sites-enabled/h-dup-1 <<CONF
server { listen 80; server_name h-dup.$zone; return 200 "one"; }
CONF
  cat >/etc/nginx/sites-enabled/h-dup-2 <<CONF
server { listen 80; server_name h-dup.$zone; return 200 "two"; }
CONF
  # The TLS site starts as a plain port-80 site; once the lab's Pebble answers, lab.ts runs
  # `certbot --nginx` on it as a user would (hand-sites.ts): a live certificate, certbot's edits.
  cat >/etc/nginx/sites-available/h-tls <<CONF
server {
    listen 80;
    server_name h-tls.$zone;
    location / {
        proxy_pass http://127.0.0.1:8082;
    }
}
CONF
  ln -s /etc/nginx/sites-available/h-tls /etc/nginx/sites-enabled/h-tls
fi

# No cron daemon, and no package source to install one from: a server where nothing can
# schedule certbot's renewal. (Every other server has cron's binary, not running.)
if has_variant no-scheduler; then
  dpkg --remove --force-depends cron >/dev/null 2>&1 || true
  rm -f /usr/sbin/cron /usr/sbin/crond /etc/apt/sources.list /etc/apt/sources.list.d/*
  rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb
fi

# /run last: until now it showed $dir, which lives on the real machine under /run.
mount -t tmpfs -o mode=0755 lab-run /run
mkdir -p /run/sshd /run/lock
chmod 0755 /run/sshd

/usr/sbin/sshd
# cron daemonizes; the namespace's end (kill -TERM -1 below, or its PID 1 gone) takes it along.
if has_variant cron-running; then cron; fi
if has_variant port80-busy; then
  mkdir -p /tmp/busy && echo "not nginx" >/tmp/busy/index.html
  setsid python3 -m http.server 80 --bind 0.0.0.0 --directory /tmp/busy >/dev/null 2>&1 &
elif ! has_variant nginx-stopped; then
  nginx
fi
if has_variant hand-sites; then
  for p in 8081 8082 8083 8084; do
    setsid python3 -m http.server "$p" --bind 127.0.0.1 --directory "/var/www/h-up-$p" >/dev/null 2>&1 &
  done
fi
# Edited by hand and never reloaded: nginx runs on, but its test now fails.
if has_variant nginx-broken; then
  echo "server { listen 80; server_name h-broken.$LAB_SERVER_NAME.portico.test; bogus_directive on; }" \
    >/etc/nginx/sites-enabled/h-broken
fi
echo "portico-lab-server-ready"

shutdown() {
  nginx -s quit 2>/dev/null || true
  kill -TERM -1 2>/dev/null || true
  exit 0
}
trap shutdown TERM INT
set +e
while :; do
  sleep 3600 &
  wait $!
done
