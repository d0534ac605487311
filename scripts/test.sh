#!/usr/bin/env bash
# The test command (`make test`, `.ci/run`):
#   1. installs the Debian packages when missing (scripts/install-deps.sh),
#   2. builds the package and its tests (debug),
#   3. starts a throwaway PostgreSQL cluster (`ledger pg start`) in a fresh folder under
#      /tmp on a free port, with durability off (fsync, synchronous_commit,
#      full_page_writes) because nothing in it outlives the run, and 300 connections for
#      tests that hold pools open side by side,
#   4. runs `swift test` with LEDGER_TEST_DATABASE_URL set to the cluster's superuser URL,
#      passing on this script's arguments (e.g. `--filter EventStoreTests`); tests that need
#      servers of their own start and stop them (the failover suites their clusters, and
#      Patroni's etcd and nodes through ops/patroni/cluster.sh),
#   5. unfiltered, runs every shell block of the docs against a fresh `ledger dev`
#      (scripts/check-docs.sh), the backup-and-restore procedure (scripts/check-backup.sh)
#      and point-in-time recovery with pgBackRest (scripts/check-pitr.sh),
#   6. always stops the cluster and deletes its folder, and exits with the tests' status.
# Works from any directory; prints how long each phase took.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

log() { echo "test.sh: $*" >&2; }

# Phase timings, printed on exit whatever happens.
clock() { if [ -n "${EPOCHREALTIME:-}" ]; then echo "${EPOCHREALTIME/,/.}"; else date +%s; fi; }
script_started=$(clock)
phase_names=()
phase_seconds=()
phase_name=""
phase_started=""
begin() { end_phase; phase_name=$1; phase_started=$(clock); log "== $1"; }
end_phase() {
    if [ -n "$phase_name" ]; then
        phase_names+=("$phase_name")
        phase_seconds+=("$(awk -v a="$phase_started" -v b="$(clock)" 'BEGIN { printf "%.1f", b - a }')")
        phase_name=""
    fi
}

cluster_dir=""
ledger=".build/debug/ledger"

finish() {
    local status=$?
    end_phase
    if [ -n "$cluster_dir" ]; then
        begin "stop postgres"
        if [ "$status" -ne 0 ] && [ -s "$cluster_dir/postgres.log" ]; then
            log "last lines of the PostgreSQL log:"
            tail -n 40 "$cluster_dir/postgres.log" >&2 || true
        fi
        "$ledger" pg stop --dir "$cluster_dir" || log "warning: could not stop the cluster in $cluster_dir"
        rm -rf "$cluster_dir"
        end_phase
    fi
    local summary="" i
    for i in "${!phase_names[@]}"; do summary+="${phase_names[$i]} ${phase_seconds[$i]}s, "; done
    summary+="total $(awk -v a="$script_started" -v b="$(clock)" 'BEGIN { printf "%.1f", b - a }')s"
    log "timings: $summary"
    log "exit status $status"
    exit "$status"
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
# A reader that goes away (`make test | head`) must not leave the cluster running: stop it
# quietly, writing to a closed pipe being no reason to skip the cleanup.
trap 'exec >/dev/null 2>&1; exit 141' PIPE

# CI may run with a minimal PATH; the toolchain of this project's machines is in /opt/swift.
if ! command -v swift >/dev/null 2>&1; then
    if [ -x /opt/swift/usr/bin/swift ]; then
        export PATH="/opt/swift/usr/bin:$PATH"
    else
        log "no swift on PATH nor in /opt/swift/usr/bin: install a Swift 6 toolchain"
        exit 1
    fi
fi

begin "deps"
bash scripts/install-deps.sh --tests

begin "build"
# Tests too, so that the "tests" phase below measures running them, not compiling them.
swift build --build-tests

begin "start postgres"
port_is_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# /tmp rather than $TMPDIR: as root the server runs as another account, which must be able
# to enter every folder above the cluster, and a private TMPDIR may not allow that.
cluster_dir=$(mktemp -d /tmp/ledger-test-pg.XXXXXX)
errors="$cluster_dir.start-errors"
url=""
for attempt in 1 2 3; do
    # Below Linux's ephemeral range (32768-60999), so outgoing connections never hold it.
    port=$((15000 + RANDOM % 15000))
    port_is_taken "$port" && continue
    if url=$("$ledger" pg start --dir "$cluster_dir" --port "$port" \
        --set fsync=off --set synchronous_commit=off --set full_page_writes=off \
        --set max_connections=300 2>"$errors"); then
        break
    fi
    url=""
    # Another process may take the port between the check and the start; anything else
    # will not get better by trying again.
    grep -q "already in use" "$errors" || break
done
if [ -z "$url" ]; then
    cat "$errors" >&2 2>/dev/null || true
    rm -f "$errors"
    log "could not start PostgreSQL"
    exit 1
fi
rm -f "$errors"
export LEDGER_TEST_DATABASE_URL="$url"
log "PostgreSQL at $url (cluster in $cluster_dir)"

begin "tests"
set +e
swift test "$@"
status=$?
set -e

# The docs and the backup procedures are checked by running them (a fresh `ledger dev` for
# every shell block of the docs; a dump and a restore into a second cluster; a pgBackRest
# backup, archived WAL and a restore to a point in time), so that none can drift from the
# code. Skipped when the tests are filtered (`--filter X`).
if [ "$status" -eq 0 ] && [ "$#" -eq 0 ]; then
    begin "docs check"
    LEDGER_BIN="$ledger" bash scripts/check-docs.sh || status=$?
    begin "backup check"
    LEDGER_BIN="$ledger" bash scripts/check-backup.sh || status=$?
    begin "pitr check"
    LEDGER_BIN="$ledger" bash scripts/check-pitr.sh || status=$?
fi
end_phase
exit "$status"
