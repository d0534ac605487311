#!/usr/bin/env bash
# Continuous archiving and point-in-time recovery with pgBackRest, as docs/backup.md
# gives them, run end to end so that the page cannot drift from what works:
#   1. a throwaway source cluster (`ledger pg start`) that archives its WAL with
#      `pgbackrest archive-push` into a local repository (a pgbackrest.conf of its own in
#      a temporary folder); the role layout of scripts/check-backup.sh (`ledger_owner`
#      migrates, `ledger_proj` projects, `pitr_check` is the operator);
#   2. `pgbackrest stanza-create` and `check`; the projector signing checkpoints of the
#      log into a witness folder (the auditor's copy); events appended; the first signed
#      checkpoint kept;
#   3. `pgbackrest backup --type=full`; more events; the head P (the last event to keep)
#      and the projections' checksums at P; more events; the target: the `recorded_at`
#      of event P + 1, the first event to lose (docs/backup.md: it lies strictly between
#      the commit of P and the commit of P + 1), and the xmin of P + 1 (its transaction);
#      `pg_switch_wal()`, until the archive has the segment; the source stopped;
#   4. `pgbackrest restore --type=time --target=… --target-action=promote` into a fresh
#      data directory, started with `ledger pg start` on another port, until promoted;
#      the server's log says it stopped before the commit of that very transaction;
#   5. on it: the log ends exactly at P with P's hash (`ledger verify --expect`), the whole
#      chain verifies, nothing is pending (`ledger migrate --status`), the checksums are
#      the source's at P, `ledger replay --dry-run` rebuilds every projection from the
#      log to the same rows, the kept checkpoint's signature checks with `openssl` and its
#      tree is the beginning of the restored one (its root recomputed from the restored
#      events, and the consistency proof `ledger audit consistency` gives checked as an
#      auditor does, RFC 9162); then one more append: the restored ledger takes writes.
# Prints how long each step took. Every cluster, background process and temporary folder
# is removed whatever happens. As root the server runs as another account (`ledger pg
# start`), and every pgbackrest command runs as that account too, as PostgreSQL's
# archive_command does.
# LEDGER_BIN: the ledger executable (default .build/debug/ledger); the PostgreSQL client
# programs come from PG_BIN (default /usr/lib/postgresql/15/bin); PGBACKREST: the
# pgbackrest executable (default: found on PATH, installed by scripts/install-deps.sh
# --tests). CHECK_PITR_PORTS="SOURCE RESTORE" asks for two ports (default: free ones
# chosen at random).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD

LEDGER_BIN=${LEDGER_BIN:-.build/debug/ledger}
case $LEDGER_BIN in /*) ;; *) LEDGER_BIN="$repo/$LEDGER_BIN" ;; esac
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PGBACKREST=${PGBACKREST:-$(command -v pgbackrest || true)}
read -r source_port restore_port <<<"${CHECK_PITR_PORTS:-}" || true

clock() { if [ -n "${EPOCHREALTIME:-}" ]; then echo "${EPOCHREALTIME/,/.}"; else date +%s; fi; }
since() { awk -v a="$1" -v b="$(clock)" 'BEGIN { printf "%.1f", b - a }'; }
started=$(clock)
step_names=()
step_seconds=()
step_name=""
step_started=""
end_step() {
    if [ -n "$step_name" ]; then
        step_names+=("$step_name")
        step_seconds+=("$(since "$step_started")")
        step_name=""
    fi
}
# step LABEL WHAT: a new step, LABEL in the timings printed at the end.
step() {
    end_step
    step_name=$1
    step_started=$(clock)
    echo "check-pitr: [$(since "$started")s] $2" >&2
}
note() { echo "check-pitr:     $*" >&2; }
fail() { echo "check-pitr: FAILED: $*" >&2; exit 1; }
# ledger, psql_, port_is_taken, role_url, start_projector, stop_projectors,
# wait_for_lag_zero, head_of
source scripts/lib/check-helpers.sh

[ -x "$LEDGER_BIN" ] || fail "no ledger executable at $LEDGER_BIN (set LEDGER_BIN)"
[ -x "$PG_BIN/psql" ] || fail "no psql in $PG_BIN (set PG_BIN)"
[ -n "$PGBACKREST" ] && [ -x "$PGBACKREST" ] \
    || fail "no pgbackrest on PATH (scripts/install-deps.sh --tests installs Debian's package; or set PGBACKREST)"
command -v openssl >/dev/null || fail "no openssl (scripts/install-deps.sh installs it)"
command -v python3 >/dev/null || fail "no python3 (scripts/install-deps.sh installs it)"

export LEDGER_SQL_DIR="$repo/sql"
export LEDGER_OPERATOR=pitr_check
unset DATABASE_URL LEDGER_MIGRATION_DATABASE_URL LEDGER_PROJECTOR_DATABASE_URL

# /tmp rather than $TMPDIR: as root the server (and pgbackrest) run as another account,
# which must be able to enter every folder above a cluster's directory and the repository.
work=$(mktemp -d /tmp/ledger-pitr-check.XXXXXX)
backrest=$(mktemp -d /tmp/ledger-pitr-repo.XXXXXX)
source_dir=""
target_dir=""
projector_pids=()
# Its projectors sign checkpoints (kept, to check one against the restored tree), rarely.
projector_env=(LEDGER_CHECKPOINT_KEY_FILE="$work/checkpoint-key.pem" LEDGER_CHECKPOINT_DIR="$work/witness"
               LEDGER_CHECKPOINT_EVERY_EVENTS=1000000 LEDGER_CHECKPOINT_EVERY_SECONDS=3600)

finish() {
    local status=$?
    set +e
    end_step
    for pid in "${projector_pids[@]}"; do
        kill -TERM "$pid" 2>/dev/null
    done
    for pid in "${projector_pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    if [ "$status" -ne 0 ]; then
        for log in "$work"/*.log "$backrest"/log/*.log "$source_dir/postgres.log" "$target_dir/postgres.log"; do
            [ -s "$log" ] || continue
            echo "check-pitr: last lines of $log:" >&2
            tail -n 20 "$log" >&2
        done
    fi
    for dir in "$source_dir" "$target_dir"; do
        [ -n "$dir" ] || continue
        "$LEDGER_BIN" pg stop --dir "$dir" || echo "check-pitr: warning: could not stop the cluster in $dir" >&2
        rm -rf "$dir"
    done
    rm -rf "$work" "$backrest"
    local summary="" i
    for i in "${!step_names[@]}"; do summary+="${step_names[$i]} ${step_seconds[$i]}s; "; done
    echo "check-pitr: timings: ${summary}total $(since "$started")s" >&2
    if [ "$status" -eq 0 ]; then
        echo "check-pitr: passed" >&2
    else
        echo "check-pitr: exit status $status" >&2
    fi
    exit "$status"
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP


# start_cluster DIR PORT [--set NAME=VALUE ...]: starts the cluster in DIR on PORT (when
# given and free) or on a free port above 56000, prints its superuser URL.
start_cluster() {
    local dir=$1 wanted=$2 port url attempt errors="$work/pg-start.err"
    shift 2
    for attempt in 1 2 3 4 5; do
        if [ "$attempt" -eq 1 ] && [ -n "$wanted" ]; then port=$wanted; else port=$((56000 + RANDOM % 4000)); fi
        port_is_taken "$port" && continue
        if url=$("$LEDGER_BIN" pg start --dir "$dir" --port "$port" "$@" 2>"$errors"); then
            cat "$errors" >&2
            echo "$url"
            return 0
        fi
        grep -q "already in use" "$errors" || break
    done
    cat "$errors" >&2
    fail "could not start PostgreSQL in $dir"
}

# The server account of the cluster in DIR, when this script runs as root (`ledger pg
# start` runs initdb and postgres as the owner of DIR/data); empty otherwise.
server_account() {
    [ "$(id -u)" -eq 0 ] || return 0
    [ -d "$1/data" ] || fail "no $1/data: ledger pg start placed the cluster elsewhere (use a folder every account may enter)"
    stat -c %U "$1/data"
}

# as_server COMMAND...: COMMAND as the server's account (runuser, else su: the way
# `ledger pg start` runs pg_ctl), in the repository's folder, which that account owns.
as_server() {
    if [ -z "$server_user" ]; then (cd "$backrest" && "$@"); return; fi
    if command -v runuser >/dev/null; then
        (cd "$backrest" && runuser -u "$server_user" -- "$@")
    else
        (cd "$backrest" && su -s /bin/sh -c 'exec "$@"' -- "$server_user" sh "$@")
    fi
}
pgbackrest_() { as_server "$PGBACKREST" --config="$backrest/pgbackrest.conf" --stanza=ledger "$@"; }

# The clusters want a password over TCP (`ledger pg start`): the logins made here all have
# this one, which is no secret (throwaway clusters on loopback); the superuser's is random.
login_password=pitr-check






# credit POOL AMOUNT DESCRIPTION: one operator's credit, its position on stdout.
credit() {
    local out position
    out=$(ledger admin credit --pool "$1" --source grant --amount "$2" --description "$3" --reason "pitr check" --json)
    position=$(sed -n 's/.*"position":\([0-9]*\).*/\1/p' <<<"$out")
    [ -n "$position" ] || { echo "$out" >&2; fail "no position in the credit's output"; }
    echo "$position"
}

# --- The source, archiving into the repository -------------------------------------

step source "start the source cluster, archiving with pgbackrest archive-push; pgbackrest.conf"
mkdir -p "$backrest/repo" "$backrest/log" "$backrest/lock" "$backrest/spool" "$work/witness"
source_dir=$(mktemp -d /tmp/ledger-pitr-source.XXXXXX)
# archive_mode needs a restart, so it is set when the cluster starts; the stanza's
# connection settings (the port) are written once the port is known, before any WAL
# segment can be complete.
source_su=$(start_cluster "$source_dir" "$source_port" \
    --set fsync=off --set synchronous_commit=off \
    --set wal_level=replica --set archive_mode=on --set archive_timeout=60 \
    --set "archive_command=$PGBACKREST --config=$backrest/pgbackrest.conf --stanza=ledger archive-push %p")
source_port=${source_su##*:}
source_port=${source_port%%/*}
server_user=$(server_account "$source_dir")
[ -S "$source_dir/run/.s.PGSQL.$source_port" ] || fail "no unix socket in $source_dir/run (pgbackrest connects through it)"
cat >"$backrest/pgbackrest.conf" <<EOF
[global]
repo1-path=$backrest/repo
repo1-retention-full=2
compress-type=lz4
start-fast=y
process-max=2
log-path=$backrest/log
lock-path=$backrest/lock
spool-path=$backrest/spool
log-level-console=warn
log-level-file=detail

[ledger]
pg1-path=$source_dir/data
pg1-port=$source_port
pg1-socket-path=$source_dir/run
pg1-user=postgres
EOF
[ -z "$server_user" ] || chown -R "$server_user:" "$backrest"
note "source cluster at $source_su${server_user:+, run as $server_user}; pgbackrest $("$PGBACKREST" version | sed 's/^pgBackRest //'), repository $backrest/repo"
psql_ --dbname "$source_su" \
    -c "CREATE ROLE ledger_owner LOGIN CREATEROLE PASSWORD '$login_password'" \
    -c "CREATE DATABASE ledger OWNER ledger_owner"
source_owner=$(role_url "$source_su" ledger_owner ledger)
source_api=$(role_url "$source_su" ledger_api ledger)
source_projector=$(role_url "$source_su" ledger_proj ledger)
source_operator=$(role_url "$source_su" pitr_check ledger)

step migrate "ledger migrate (as ledger_owner), the login roles"
LEDGER_MIGRATION_DATABASE_URL=$source_owner DATABASE_URL=$source_owner ledger migrate >/dev/null
psql_ --dbname "$source_owner" -c "CREATE ROLE ledger_api LOGIN IN ROLE ledger_service PASSWORD '$login_password'" \
    -c "CREATE ROLE ledger_proj LOGIN IN ROLE ledger_projector PASSWORD '$login_password'" \
    -c "CREATE ROLE pitr_check LOGIN IN ROLE ledger_operator PASSWORD '$login_password'"

step stanza "pgbackrest stanza-create, pgbackrest check (a WAL segment archived)"
pgbackrest_ stanza-create
pgbackrest_ check

step events "the projector (as ledger_proj, signing checkpoints), events appended, the first checkpoint kept"
ledger checkpoint-key create --out "$work/checkpoint-key.pem" >/dev/null
start_projector source "$source_projector"
export DATABASE_URL=$source_operator
ledger admin payer create --id acme --name "Acme" --reason "pitr check" >/dev/null
ledger admin project create --id acme-web --name "Acme web" --payer acme --reason "pitr check" >/dev/null
ledger admin project create --id solo --name "Solo" --self-paying --reason "pitr check" >/dev/null
grant_position=$(credit payer:acme 150000 "opening grant")
# The first checkpoint is signed as soon as the tree has a leaf; with these settings no
# other follows (a day's worth of seconds, a million events), so the log is quiet once it
# is folded.
for _ in $(seq 100); do
    kept=$(ls "$work/witness"/checkpoint-*.txt 2>/dev/null | head -1 || true)
    [ -n "$kept" ] && break
    sleep 0.1
done
[ -n "$kept" ] || fail "the projector signed no checkpoint within 10 s"
cp "$kept" "$work/kept.txt"
cp "${kept%.txt}.sig" "$work/kept.sig"
kept_size=$(sed -n 's/^size //p' "$work/kept.txt")
wait_for_lag_zero "$source_api"
note "kept the checkpoint of the tree of $kept_size events; head $(head_of "$source_api")"

step backup "pgbackrest backup --type=full"
backup_started=$(clock)
pgbackrest_ --type=full backup
backup_seconds=$(since "$backup_started")
note "full backup in ${backup_seconds}s"
# pgBackRest picks the backup for a time target by the backup's stop time, in whole
# seconds, and only one that stopped in an earlier second than the target: a target in the
# second the backup ended finds no backup. Here both are a moment apart, so wait for the
# next second (a real target is hours after its backup).
sleep "$(awk -v now="$(clock)" 'BEGIN { printf "%.3f", int(now) + 1.02 - now }')"

step "events-kept" "events after the backup (in the archived WAL only); the head P to keep and its checksums"
credit project:solo 20000 "top-up" >/dev/null
ledger admin correct --entry "je_${grant_position}_0" --amount -25000 \
    --reason "pitr check: the grant was 125 credits" >/dev/null
ledger admin org create --id screenrig --name "ScreenRig" --reason "pitr check" >/dev/null
wait_for_lag_zero "$source_api"
kept_head=$(head_of "$source_api")
kept_position=${kept_head%%:*}
DATABASE_URL=$source_api ledger projections --checksums >"$work/checksums-source.txt"
note "P = $kept_head"

step "events-lost" "events to lose; the target: recorded_at of event P + 1"
ledger admin app create --id demo-app --name "Demo app" --bundle-id ai.screenrig.app --reason "pitr check" >/dev/null
credit payer:acme 1000 "after the target" >/dev/null
credit project:solo 500 "after the target" >/dev/null
# docs/backup.md: recorded_at is read under the append lock, which the transaction of P
# held until it committed, and before the transaction of P + 1 commits.
first_lost=$(ledger export events --after "$kept_position" --through "$((kept_position + 1))" --format jsonl 2>/dev/null)
target=$(python3 -c 'import json,sys;print(json.loads(sys.argv[1])["recorded_at"].replace("T", " ").replace("Z", "+00"))' "$first_lost")
note "target $target (event $((kept_position + 1)), $(python3 -c 'import json,sys;print(json.loads(sys.argv[1])["type"])' "$first_lost"))"
lost_head=$(head_of "$source_api")
# The transaction that appended it, for --type=xid (events are never updated, so xmin is
# the appending transaction's id): the one the time target must stop before.
first_lost_xid=$(psql_ --dbname "$source_api" -A -t -c "SELECT xmin FROM events WHERE position = $((kept_position + 1))")
unset DATABASE_URL
stop_projectors
[ "${lost_head%%:*}" -gt "$kept_position" ] || fail "nothing was appended after P"

step archive "pg_switch_wal(), until the archive has the segment; the source stopped"
segment=$(psql_ --dbname "$source_su" -A -t -c "SELECT pg_walfile_name(pg_switch_wal())")
for _ in $(seq 100); do
    [ "$(psql_ --dbname "$source_su" -A -t -c "SELECT coalesce(last_archived_wal, '') >= '$segment' FROM pg_stat_archiver")" = t ] && break
    sleep 0.1
done
[ "$(psql_ --dbname "$source_su" -A -t -c "SELECT coalesce(last_archived_wal, '') >= '$segment' FROM pg_stat_archiver")" = t ] \
    || fail "segment $segment not archived within 10 s: $(psql_ --dbname "$source_su" -A -t -c "SELECT failed_count, last_failed_wal FROM pg_stat_archiver")"
ledger pg stop --dir "$source_dir"
pgbackrest_ info >&2

# --- The restore --------------------------------------------------------------------

step restore "pgbackrest restore --type=time --target-action=promote into a fresh data directory, started, promoted"
target_dir=$(mktemp -d /tmp/ledger-pitr-target.XXXXXX)
mkdir -m 700 "$target_dir/data"
[ -z "$server_user" ] || chown -R "$server_user:" "$target_dir"
restore_started=$(clock)
pgbackrest_ --pg1-path="$target_dir/data" --type=time "--target=$target" --target-action=promote restore
# A physical copy has the source's roles, the superuser's password among them.
cp -p "$source_dir/superuser-password" "$target_dir/superuser-password"
target_su=$(start_cluster "$target_dir" "$restore_port" --set fsync=off --set synchronous_commit=off)
for _ in $(seq 300); do
    [ "$(psql_ --dbname "$target_su" -A -t -c "SELECT pg_is_in_recovery()")" = f ] && break
    sleep 0.1
done
[ "$(psql_ --dbname "$target_su" -A -t -c "SELECT pg_is_in_recovery()")" = f ] || fail "the restored cluster was not promoted within 30 s"
restore_seconds=$(since "$restore_started")
stop_line=$(grep -m1 -o 'recovery stopping before commit of transaction [0-9]*, time .*' "$target_dir/postgres.log" || true)
note "restored, replayed to the target and promoted in ${restore_seconds}s (${stop_line:-no stop line in the server log})"
[ "$(sed -n 's/.*transaction \([0-9]*\),.*/\1/p' <<<"$stop_line")" = "$first_lost_xid" ] \
    || fail "recovery did not stop before the transaction of event $((kept_position + 1)) (xmin $first_lost_xid)"
target_api=$(role_url "$target_su" ledger_api ledger)
target_owner=$(role_url "$target_su" ledger_owner ledger)
target_projector=$(role_url "$target_su" ledger_proj ledger)
target_operator=$(role_url "$target_su" pitr_check ledger)

step verify "the log ends exactly at P: ledger verify --expect P:HASH, ledger migrate --status"
restored_head=$(head_of "$target_api")
[ "$restored_head" = "$kept_head" ] || fail "restored head $restored_head, the last event before the target is $kept_head"
DATABASE_URL=$target_api ledger verify --expect "$kept_head" >&2 || fail "ledger verify --expect $kept_head exited $?"
status=0
status_out=$(LEDGER_MIGRATION_DATABASE_URL=$target_owner DATABASE_URL=$target_api ledger migrate --status) || status=$?
[ "$status" -eq 0 ] && ! grep -qi pending <<<"$status_out" || { echo "$status_out" >&2; fail "ledger migrate --status exited $status"; }

step projections "the projections: the source's checksums at P, and a rebuild from the log to the same rows"
DATABASE_URL=$target_api ledger projections --checksums >"$work/checksums-target.txt"
diff "$work/checksums-source.txt" "$work/checksums-target.txt" >&2 \
    || fail "the restored projections' checksums differ from the source's at P"
projections_count=$(grep -c ': position ' "$work/checksums-target.txt")
status=0
replay_out=$(DATABASE_URL=$target_projector ledger replay --dry-run 2>"$work/replay.log") || status=$?
[ "$status" -eq 0 ] || { echo "$replay_out" >&2; fail "ledger replay --dry-run exited $status"; }
[ "$(grep -c ": unchanged at position $kept_position\$" <<<"$replay_out")" -eq "$projections_count" ] \
    || { echo "$replay_out" >&2; fail "ledger replay --dry-run does not report all $projections_count projections unchanged at $kept_position"; }
note "$(grep -c ': [0-9]*:' "$work/checksums-target.txt") tables of $projections_count projections identical; the rebuild unchanged at $kept_position"

step checkpoint "the kept checkpoint: its signature, and its tree the beginning of the restored one"
ledger checkpoint-key public --key "$work/checkpoint-key.pem" | sed -n '/BEGIN PUBLIC KEY/,/END PUBLIC KEY/p' >"$work/key.pem"
openssl pkeyutl -verify -pubin -inkey "$work/key.pem" -rawin -in "$work/kept.txt" -sigfile "$work/kept.sig" >&2 \
    || fail "the kept checkpoint's signature does not check"
DATABASE_URL=$target_operator ledger audit consistency --from "$kept_size" --to "$kept_position" --json >"$work/consistency.json"
psql_ --dbname "$target_api" -A -t -c "SELECT encode(hash, 'hex') FROM events ORDER BY position" >"$work/hashes.txt"
python3 - "$work" <<'PY' >&2 || fail "the kept checkpoint is not consistent with the restored log"
import hashlib, json, sys
work = sys.argv[1]
H = lambda b: hashlib.sha256(b).digest()
node = lambda l, r: H(b"\x01" + l + r)
leaves = [H(b"\x00" + bytes.fromhex(line)) for line in open(work + "/hashes.txt").read().split()]
def root(items):                                   # RFC 9162 2.1.1, MTH
    if len(items) == 1: return items[0]
    k = 1
    while k * 2 < len(items): k *= 2
    return node(root(items[:k]), root(items[k:]))
kept = dict(line.split(" ", 1) for line in open(work + "/kept.txt").read().splitlines()[1:])
m, n = int(kept["size"]), len(leaves)
proof = json.load(open(work + "/consistency.json"))
assert (proof["from"], proof["to"]) == (m, n), f"the proof is of {proof['from']} to {proof['to']}, not {m} to {n}"
old, new = bytes.fromhex(kept["root"]), root(leaves)
# Recomputed from the restored events alone: the kept root is the root of their first m.
assert root(leaves[:m]) == old, "the restored log's first events do not give the kept checkpoint's root"
assert proof["to_root"] == new.hex(), "the restored tree's root is not the one recomputed from its events"
# The auditor's check, which needs no event: the proof from the kept root to the restored one (RFC 9162 2.1.4.2).
path = [bytes.fromhex(h) for h in proof["path"]]
if m < n:
    if m & (m - 1) == 0: path = [old] + path
    fn, sn = m - 1, n - 1
    while fn & 1: fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        assert sn, "the proof is too long"
        if fn & 1 or fn == sn:
            fr, sr = node(c, fr), node(c, sr)
            while fn and not fn & 1: fn, sn = fn >> 1, sn >> 1
        else: sr = node(sr, c)
        fn, sn = fn >> 1, sn >> 1
    assert sn == 0 and fr == old and sr == new, "the consistency proof does not join the kept root to the restored one"
else: assert m == n and old == new and not path, "the kept checkpoint is not the restored tree"
print(f"check-pitr:     the kept checkpoint's tree of {m} events is the beginning of the restored tree of {n}")
PY

step write "the restored ledger takes writes (as $LEDGER_OPERATOR)"
after=$(DATABASE_URL=$target_operator credit payer:acme 700 "after the restore")
[ "$after" -eq $((kept_position + 1)) ] || fail "the first append after the restore is at $after, not $((kept_position + 1))"
DATABASE_URL=$target_api ledger verify --expect "$kept_head" >/dev/null || fail "ledger verify --expect $kept_head after an append exited $?"
note "backup ${backup_seconds}s, restore ${restore_seconds}s; kept $kept_position of ${lost_head%%:*} events"
