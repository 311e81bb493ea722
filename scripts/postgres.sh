#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests and benchmarks: a new cluster in a folder, served
# on a free loopback port (no Unix socket outside the folder), trusted for local connections.
#
#   scripts/postgres.sh start DIR   starts it in DIR (empty or missing); prints its admin URL
#   scripts/postgres.sh stop DIR    stops it (nothing if none runs there); DIR is left to remove
#
# Installs Debian's PostgreSQL server when it is missing. Run as root, the cluster runs as the
# `postgres` user (PostgreSQL refuses to run as root).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
SAY_PREFIX=postgres
source "$ROOT/scripts/install-helpers.sh"

bin_dir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
  local dir=$1
  [ -n "$(bin_dir)" ] || apt_install postgresql
  local bin port
  bin=$(bin_dir)
  port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres: "$dir"
  as_owner "$bin/initdb" -D "$dir/data" -U dicebound --auth=trust --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; echo "postgres: initdb failed" >&2; exit 1; }
  # Throwaway data: no fsync. Enough connections for the tests' pools and the benches' crowds.
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
    -o "-h 127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
    >/dev/null || { cat "$dir/server.log" >&2; echo "postgres: the server did not start" >&2; exit 1; }
  echo "postgres://dicebound@127.0.0.1:$port/postgres"
}

stop() {
  local dir=$1 bin
  bin=$(bin_dir)
  if [ -n "$bin" ] && [ -f "$dir/data/postmaster.pid" ]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
}

case "${1:-}" in
  start) start "${2:?a folder for the cluster}" ;;
  stop) stop "${2:?the folder of the cluster}" ;;
  *) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
