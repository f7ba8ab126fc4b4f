#!/usr/bin/env bash
# Fray's container entry point (also runs outside Docker: tests/deploy/).
#
#   entrypoint.sh            run the game in the foreground until SIGTERM/SIGINT
#   entrypoint.sh prepare    (image build, as root) point the game dir's state
#                            at the data volume; see the Dockerfile
#   entrypoint.sh <cmd ...>  run another command (e.g. `evennia shell`) instead
#
# Everything a game must keep lives in $FRAY_DATA (the image's one VOLUME,
# default /data): the SQLite database (unless DATABASE_URL names PostgreSQL),
# secret_settings.py (a SECRET_KEY written on the first start and kept), and
# the logs. The game dir ($FRAY_GAME_DIR, default the script's parent dir)
# reaches them through symlinks made by `prepare`.
#
# Evennia 5's launcher keeps its pid files at fixed places in the game dir
# (server/server.pid, server/portal.pid; no setting moves them), so they stay in
# the container layer; `server.startup start` removes stale ones (a container
# restarted after a kill or an out-of-memory kill would otherwise find its old
# pids taken by other processes and twistd would refuse to start).
#
# The admin account (Account #1) is made on the first start from
# FRAY_ADMIN_USER (default admin) and the password in the file
# FRAY_ADMIN_PASSWORD_FILE (default /run/secrets/fray_admin_password when that
# exists) or in FRAY_ADMIN_PASSWORD. Later starts need no password (a password
# file that has gone is then noted in one line, not an error). The password
# never reaches the Portal's or Server's environment.
#
# A run: data dir + secret -> database check (a bad DATABASE_URL or a database
# that does not answer: one line, exit 2, nothing started) -> admin check ->
# evennia migrate -> admin -> `python -m server.startup start` (waits while the
# server makes progress and until a new database's setup restart is over, stops
# what it started on failure) -> "entrypoint: running" and the ready file
# $FRAY_GAME_DIR/server/fray.ready (the HEALTHCHECK waits for it) -> wait.
# SIGTERM/SIGINT (docker stop) runs `evennia stop` and exits 0. If the Portal
# dies, exit 1 (the restart policy brings the container back); if the Server
# dies, the Portal's watchdog restarts it (server/conf/portal_services_plugins.py).
set -euo pipefail

say() { echo "entrypoint: $*"; }
die() { echo "entrypoint: error: $*" >&2; exit 2; }

FRAY_GAME_DIR=${FRAY_GAME_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
FRAY_DATA=${FRAY_DATA:-/data}
export FRAY_GAME_DIR FRAY_DATA

prepare() {
    # the game dir's state files and dirs -> the data volume
    local conf="$FRAY_GAME_DIR/server/conf/secret_settings.py"
    local logs="$FRAY_GAME_DIR/server/logs"
    rm -rf "$logs"
    ln -sfn "$FRAY_DATA/logs" "$logs"
    rm -f "$conf"
    ln -s "$FRAY_DATA/secret_settings.py" "$conf"
    mkdir -p "$FRAY_DATA/logs"
}

if [ "${1:-}" = prepare ]; then
    prepare
    exit 0
fi

cd "$FRAY_GAME_DIR"
[ -f server/conf/settings.py ] || die "$FRAY_GAME_DIR is not a Fray game dir (no server/conf/settings.py)"
[ -L server/conf/secret_settings.py ] \
    || die "server/conf/secret_settings.py is not linked to $FRAY_DATA: run '$0 prepare' (the Dockerfile does)"

# --- the data volume ---------------------------------------------------------
mkdir -p "$FRAY_DATA/logs" 2>/dev/null || true
[ -w "$FRAY_DATA" ] || die "$FRAY_DATA is not writable by uid $(id -u): mount a volume the user can write (docker run -v fray-data:$FRAY_DATA)"
if [ ! -s "$FRAY_DATA/secret_settings.py" ]; then
    (
        umask 077
        python -c 'import secrets; print("# Written once by docker/entrypoint.sh; keep it (sessions and passwords reset need it).\nSECRET_KEY = %r" % secrets.token_urlsafe(50))' \
            > "$FRAY_DATA/secret_settings.py.new"
        mv "$FRAY_DATA/secret_settings.py.new" "$FRAY_DATA/secret_settings.py"
    )
    say "wrote $FRAY_DATA/secret_settings.py (a new SECRET_KEY, kept in the volume)"
fi
# SQLite in the volume unless DATABASE_URL says otherwise
export DATABASE_URL=${DATABASE_URL:-sqlite:///$FRAY_DATA/evennia.db3}

if [ $# -gt 0 ]; then
    exec "$@"
fi

ready_file="$FRAY_GAME_DIR/server/fray.ready"
rm -f "$ready_file"

# --- the database --------------------------------------------------------------
# the settings load (DATABASE_URL) and the database answers; else one line, exit 2
python -m server.database check --prefix "entrypoint: error: " </dev/null || exit 2

# --- the admin account ---------------------------------------------------------
if [ -z "${FRAY_ADMIN_PASSWORD_FILE:-}" ] && [ -z "${FRAY_ADMIN_PASSWORD:-}" ] \
        && [ -f /run/secrets/fray_admin_password ]; then
    export FRAY_ADMIN_PASSWORD_FILE=/run/secrets/fray_admin_password
fi
# a password given but unreadable (a secret file missing or empty): why, in one line
password_error=
if [ -n "${FRAY_ADMIN_PASSWORD_FILE:-}" ] || [ -n "${FRAY_ADMIN_PASSWORD:-}" ]; then
    password_error=$(python -m server.admin_account password 2>&1 </dev/null) || true
    password_error=${password_error#!!! }
fi
if { [ -z "${FRAY_ADMIN_PASSWORD_FILE:-}" ] && [ -z "${FRAY_ADMIN_PASSWORD:-}" ]; } \
        || [ -n "$password_error" ]; then
    # no usable password: fine only if the admin exists already (checked before
    # migrate: Evennia's launcher would prompt for one otherwise)
    rc=0
    python -m server.admin_account check </dev/null || rc=$?
    if [ "$rc" = 3 ] && [ -n "$password_error" ]; then
        die "$password_error"
    elif [ "$rc" = 3 ]; then
        die "no admin account yet and no password for it: set FRAY_ADMIN_PASSWORD, or FRAY_ADMIN_PASSWORD_FILE to a file holding it (a Docker secret: /run/secrets/fray_admin_password)"
    elif [ "$rc" != 0 ]; then
        die "could not read the database (exit $rc; see above)"
    elif [ -n "$password_error" ]; then
        say "$password_error; not needed: the admin account exists already"
        unset FRAY_ADMIN_PASSWORD FRAY_ADMIN_PASSWORD_FILE
    fi
fi

say "evennia migrate"
evennia migrate --no-input </dev/null
python -m server.admin_account ensure
unset FRAY_ADMIN_PASSWORD FRAY_ADMIN_PASSWORD_FILE

# --- run -----------------------------------------------------------------------
tail_pid=
starter_pid=
portal_pidfile="$FRAY_GAME_DIR/server/portal.pid"

stop() {
    trap - TERM INT
    say "stopping (evennia stop) ..."
    if [ -n "$starter_pid" ]; then
        kill "$starter_pid" 2>/dev/null || true
        wait "$starter_pid" 2>/dev/null || true
    fi
    rm -f "$ready_file"
    python -m server.startup stop </dev/null || true
    if [ -n "$tail_pid" ]; then
        kill "$tail_pid" 2>/dev/null || true
    fi
    say "stopped."
    exit 0
}
trap stop TERM INT

# in the background, so that a docker stop during a long first start is heard
python -m server.startup start </dev/null &
starter_pid=$!
rc=0
wait "$starter_pid" || rc=$?
starter_pid=
if [ "$rc" != 0 ]; then
    say "Fray did not start (exit $rc)"
    exit 1
fi

# the logs on stdout (docker logs)
tail -n 0 -F "$FRAY_DATA/logs/portal.log" "$FRAY_DATA/logs/server.log" 2>/dev/null &
tail_pid=$!

portal_pid=$(cat "$portal_pidfile")
: > "$ready_file"
say "running (Portal pid $portal_pid); SIGTERM stops it"
while kill -0 "$portal_pid" 2>/dev/null; do
    sleep 2 &
    wait $! || true
done
rm -f "$ready_file"
say "the Portal (pid $portal_pid) has gone: exiting"
kill "$tail_pid" 2>/dev/null || true
exit 1
