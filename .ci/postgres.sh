#!/usr/bin/env bash
# Start a private, throw-away PostgreSQL server for the tuner's shared-study test, and export its URL
# as ALPHABETA_TEST_POSTGRES.  Source it (`. .ci/postgres.sh`); the server stops when the shell exits.
# Installs Debian's postgresql package first if no server binaries are on the machine.
set -euo pipefail

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

if [ -z "$(pg_bin)" ]; then
    echo "ci: installing PostgreSQL (Debian package postgresql)" >&2
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
fi
PG_BIN="$(pg_bin)"

# The server refuses to run as root: run it as the package's postgres user then.
PG_DIR="$(mktemp -d /tmp/alphabeta-pg.XXXXXX)"
AS=()
if [ "$(id -u)" -eq 0 ]; then
    chown postgres "$PG_DIR"
    AS=(runuser -u postgres --)
fi
PG_PORT="$(python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"${AS[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U alphabeta >/dev/null
"${AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
    -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1" start >/dev/null
"${AS[@]}" "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U alphabeta alphabeta_test
stop_postgres() { "${AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true; rm -rf "$PG_DIR"; }
trap stop_postgres EXIT
export ALPHABETA_TEST_POSTGRES="postgresql://alphabeta@127.0.0.1:$PG_PORT/alphabeta_test"
echo "ci: PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') at $ALPHABETA_TEST_POSTGRES" >&2
