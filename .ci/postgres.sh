#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the tests (CI and by hand).
#
#   .ci/postgres.sh start DIR   initdb in DIR, start it on a free loopback port,
#                               create database "fray"; prints its DATABASE_URL
#                               (also written to DIR/url)
#   .ci/postgres.sh stop DIR    stop it (the caller removes DIR)
#
# Needs Debian's `postgresql` package (.ci/run installs it). As root the
# cluster runs as the `postgres` user (initdb refuses root). The role `fray`
# is the cluster's superuser, so pytest-django may create its test database
# and the e2e harness one database per server. fsync is off: the data is
# thrown away.
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
cmd=$1
dir=$2

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    echo "PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin" \
         "(apt-get install postgresql)" >&2
    exit 1
fi

as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

case "$cmd" in
start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    password=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
    printf '%s\n' "$password" > "$dir/pwfile"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir/pwfile"
    as_owner "$bindir/initdb" -D "$dir/data" -U fray --pwfile="$dir/pwfile" \
        --auth=scram-sha-256 -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    rm -f "$dir/pwfile"
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 120 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
        start >/dev/null \
        || { cat "$dir/postgres.log" >&2; exit 1; }
    PGPASSWORD=$password "$bindir/createdb" -h 127.0.0.1 -p "$port" -U fray fray
    url="postgres://fray:$password@127.0.0.1:$port/fray"
    printf '%s\n' "$url" > "$dir/url"
    echo "$url"
    ;;
stop)
    if [ -d "$dir/data" ]; then
        as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    fi
    ;;
*)
    usage
    ;;
esac
