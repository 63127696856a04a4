#!/usr/bin/env bash
# A private PostgreSQL cluster in a folder, from Debian's server binaries: for tests, CI and the
# local stack. Nothing is installed system-wide and no system service is touched.
#
#   deploy/postgres.sh start DIR [PORT]   creates the cluster if needed, starts it, prints DATABASE_URL
#   deploy/postgres.sh stop DIR           stops it (the data stays in DIR)
#   deploy/postgres.sh url DIR            prints DATABASE_URL of a running cluster
#
# The server listens on 127.0.0.1 only, with trust authentication for the local user `a11y`.
# initdb refuses to run as root, so as root the cluster belongs to the `postgres` system user.
set -euo pipefail
command=${1:?usage: deploy/postgres.sh start|stop|url DIR [PORT]}
dir=${2:?usage: deploy/postgres.sh start|stop|url DIR [PORT]}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "PostgreSQL server binaries not found (install Debian's postgresql package)" >&2; exit 2; }

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

url() { echo "postgresql://a11y@127.0.0.1:$(cat "$dir/port")/a11y_audit"; }

case "$command" in
start)
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
        as_owner "$bin/initdb" -D "$dir/data" -U a11y --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    port=${3:-}
    # A cluster keeps its port across restarts unless told otherwise.
    if [ -z "$port" ] && [ -f "$dir/port" ]; then port=$(cat "$dir/port"); fi
    if [ -z "$port" ]; then
        port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    fi
    echo "$port" > "$dir/port"
    if ! as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
            -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories='$dir' -c max_connections=200 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
            start >/dev/null || { tail -20 "$dir/server.log" >&2; exit 1; }
    fi
    "$bin/psql" -h 127.0.0.1 -p "$port" -U a11y -d postgres -qtAc "SELECT 1 FROM pg_database WHERE datname='a11y_audit'" | grep -q 1 \
        || "$bin/createdb" -h 127.0.0.1 -p "$port" -U a11y a11y_audit
    url
    ;;
stop)
    if [ -f "$dir/data/PG_VERSION" ]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    ;;
url) url ;;
*) echo "unknown command $command" >&2; exit 2 ;;
esac
