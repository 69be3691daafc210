#!/usr/bin/env bash
# Sourced by .ci/run: starts Debian's PostgreSQL cluster and sets TEST_DATABASE_URL to a
# database the API tests may create schemas in. Under CI=true a failure stops the run.
pg_fail() {
  echo "postgres: $*" >&2
  if [ "${CI:-}" = true ]; then exit 1; fi
  unset TEST_DATABASE_URL
  return 0
}

pg_setup() {
  local version
  version=$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -n 1)
  [ -n "$version" ] || { pg_fail "PostgreSQL is not installed"; return; }
  if ! pg_lsclusters -h 2>/dev/null | awk '{print $1"/"$2}' | grep -qx "$version/main"; then
    pg_createcluster "$version" main >/dev/null || { pg_fail "pg_createcluster failed"; return; }
  fi
  if ! pg_lsclusters -h | awk -v v="$version" '$1==v && $2=="main" {print $4}' | grep -q online; then
    pg_ctlcluster "$version" main start || { pg_fail "cluster $version/main did not start"; return; }
  fi
  local port
  port=$(pg_lsclusters -h | awk -v v="$version" '$1==v && $2=="main" {print $3}')
  runuser -u postgres -- psql -p "$port" -qtAc \
    "DO \$\$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname='portico_test') THEN CREATE ROLE portico_test LOGIN SUPERUSER PASSWORD 'portico_test'; END IF; END\$\$;" \
    || { pg_fail "could not create the test role"; return; }
  runuser -u postgres -- psql -p "$port" -qtAc "SELECT 1 FROM pg_database WHERE datname='portico_test'" | grep -q 1 \
    || runuser -u postgres -- createdb -p "$port" -O portico_test portico_test \
    || { pg_fail "could not create the test database"; return; }
  TEST_DATABASE_URL="postgres://portico_test:portico_test@127.0.0.1:$port/portico_test"
  echo "postgres: $version/main on port $port, TEST_DATABASE_URL set"
}
pg_setup
