#!/usr/bin/env bash
# The backup and restore procedure of docs/backup.md, run end to end so that it cannot
# drift from the document:
#   1. a throwaway source cluster (`ledger pg start`) with the role layout of
#      docs/operations.md: the database `ledger` owned by `ledger_owner`, who migrates;
#      the API as `ledger_api`, a member of `ledger_service`; the projector as
#      `ledger_proj`, in `ledger_projector`; `ledger admin` as the operator's own login,
#      `backup_check`, in `ledger_operator` (docs/security.md: acts are recorded under
#      it); backups taken by `ledger_backup`, a member of pg_read_all_data;
#   2. the projector running and events appended through `ledger admin` (payers,
#      projects, credits, a correction, an organization, an app), until every
#      projection has lag 0;
#   3. just before the backup: the head (`ledger verify --json`), the checksums
#      (`ledger projections --checksums`) and every owner and privilege;
#   4. `pg_dumpall --roles-only --no-role-passwords` and `pg_dump --format=custom`;
#      the source cluster is stopped;
#   5. a second, fresh cluster: the roles, then `pg_restore --create --exit-on-error`;
#   6. on it: `ledger migrate --status` (nothing pending), `ledger verify` (same head),
#      `ledger verify --expect POSITION:HASH` (and a wrong hash, and a position past the
#      head, must exit 1), the checksums equal to the source's straight after the
#      restore (no projector has run), the same owners and privileges, `ledger replay
#      --dry-run` reporting every projection unchanged; then the projector and one more
#      operator's append, to show the restored ledger works as its roles, and the recorded
#      head still passes `--expect`.
# Every cluster, background process and temporary folder is removed whatever happens.
# LEDGER_BIN: the ledger executable (default .build/debug/ledger); the PostgreSQL client
# programs come from PG_BIN (default /usr/lib/postgresql/15/bin).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD

LEDGER_BIN=${LEDGER_BIN:-.build/debug/ledger}
case $LEDGER_BIN in /*) ;; *) LEDGER_BIN="$repo/$LEDGER_BIN" ;; esac
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}

started=$SECONDS
step() { echo "check-backup: [$((SECONDS - started))s] $*" >&2; }
fail() { echo "check-backup: FAILED: $*" >&2; exit 1; }
# ledger, psql_, port_is_taken, role_url, start_projector, stop_projectors,
# wait_for_lag_zero, head_of
source scripts/lib/check-helpers.sh

[ -x "$LEDGER_BIN" ] || fail "no ledger executable at $LEDGER_BIN (set LEDGER_BIN)"
for program in psql pg_dump pg_dumpall pg_restore; do
    [ -x "$PG_BIN/$program" ] || fail "no $program in $PG_BIN (set PG_BIN)"
done

export LEDGER_SQL_DIR="$repo/sql"
export LEDGER_OPERATOR=backup_check
unset DATABASE_URL LEDGER_MIGRATION_DATABASE_URL

# /tmp rather than $TMPDIR: as root the server runs as another account, which must be
# able to enter every folder above a cluster's directory.
work=$(mktemp -d /tmp/ledger-backup-check.XXXXXX)
source_dir=""
target_dir=""
projector_pids=()
projector_env=()

finish() {
    local status=$?
    set +e
    for pid in "${projector_pids[@]}"; do
        kill -TERM "$pid" 2>/dev/null
    done
    for pid in "${projector_pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    if [ "$status" -ne 0 ]; then
        for log in "$work"/*.log "$source_dir/postgres.log" "$target_dir/postgres.log"; do
            [ -s "$log" ] || continue
            echo "check-backup: last lines of $log:" >&2
            tail -n 20 "$log" >&2
        done
    fi
    for dir in "$source_dir" "$target_dir"; do
        [ -n "$dir" ] || continue
        "$LEDGER_BIN" pg stop --dir "$dir" || echo "check-backup: warning: could not stop the cluster in $dir" >&2
        rm -rf "$dir"
    done
    rm -rf "$work"
    if [ "$status" -eq 0 ]; then
        step "passed"
    else
        echo "check-backup: exit status $status after $((SECONDS - started))s" >&2
    fi
    exit "$status"
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP


# start_cluster DIR: starts a cluster in DIR on a free port above 56000, prints its
# superuser URL.
start_cluster() {
    local dir=$1 port url attempt errors="$work/pg-start.err"
    for attempt in 1 2 3 4 5; do
        port=$((56000 + RANDOM % 4000))
        port_is_taken "$port" && continue
        if url=$("$LEDGER_BIN" pg start --dir "$dir" --port "$port" \
            --set fsync=off --set synchronous_commit=off --set full_page_writes=off 2>"$errors"); then
            cat "$errors" >&2
            echo "$url"
            return 0
        fi
        grep -q "already in use" "$errors" || break
    done
    cat "$errors" >&2
    fail "could not start PostgreSQL in $dir"
}

# The clusters want a password over TCP (`ledger pg start`): the logins made here all have
# this one, which is no secret (throwaway clusters on loopback); the superuser's is random.
login_password=backup-check






# Every owner and privilege the restore must bring back, and the triggers' state.
privileges_sql="
SELECT 'database', datname, pg_get_userbyid(datdba), coalesce(datacl::text, '')
  FROM pg_database WHERE datname = current_database()
UNION ALL
SELECT 'schema', nspname, pg_get_userbyid(nspowner), coalesce(nspacl::text, '')
  FROM pg_namespace WHERE nspname !~ '^pg_' AND nspname <> 'information_schema'
UNION ALL
SELECT 'relation', n.nspname || '.' || c.relname, pg_get_userbyid(c.relowner), coalesce(c.relacl::text, '')
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname !~ '^pg_' AND n.nspname <> 'information_schema' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
UNION ALL
SELECT 'function', p.oid::regprocedure::text, pg_get_userbyid(p.proowner), coalesce(p.proacl::text, '')
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
  WHERE n.nspname !~ '^pg_' AND n.nspname <> 'information_schema'
UNION ALL
SELECT 'trigger', tgrelid::regclass::text || '.' || tgname, tgenabled::text, ''
  FROM pg_trigger WHERE NOT tgisinternal
UNION ALL
SELECT 'member', r.rolname, m.rolname, ''
  FROM pg_auth_members a JOIN pg_roles r ON r.oid = a.roleid JOIN pg_roles m ON m.oid = a.member
  WHERE r.rolname LIKE 'ledger%' OR m.rolname LIKE 'ledger%'
ORDER BY 1, 2, 3"

# --- The source -------------------------------------------------------------------

step "start the source cluster"
source_dir=$(mktemp -d /tmp/ledger-backup-source.XXXXXX)
source_su=$(start_cluster "$source_dir")
step "source cluster at $source_su"
psql_ --dbname "$source_su" \
    -c "CREATE ROLE ledger_owner LOGIN CREATEROLE PASSWORD '$login_password'" \
    -c "CREATE DATABASE ledger OWNER ledger_owner" \
    -c "CREATE ROLE ledger_backup LOGIN IN ROLE pg_read_all_data PASSWORD '$login_password'"
source_owner=$(role_url "$source_su" ledger_owner ledger)
source_api=$(role_url "$source_su" ledger_api ledger)
source_projector=$(role_url "$source_su" ledger_proj ledger)
source_operator=$(role_url "$source_su" backup_check ledger)
source_backup=$(role_url "$source_su" ledger_backup ledger)

step "ledger migrate (as ledger_owner)"
LEDGER_MIGRATION_DATABASE_URL=$source_owner DATABASE_URL=$source_owner ledger migrate >&2
psql_ --dbname "$source_owner" -c "CREATE ROLE ledger_api LOGIN IN ROLE ledger_service PASSWORD '$login_password'" \
    -c "CREATE ROLE ledger_proj LOGIN IN ROLE ledger_projector PASSWORD '$login_password'" \
    -c "CREATE ROLE backup_check LOGIN IN ROLE ledger_operator PASSWORD '$login_password'"

step "ledger project in the background (as ledger_proj)"
start_projector source "$source_projector"

step "append events with ledger admin (as the operator's login, $LEDGER_OPERATOR)"
export DATABASE_URL=$source_operator
ledger admin payer create --id acme --name "Acme" --reason "backup check" >/dev/null
ledger admin project create --id acme-web --name "Acme web" --payer acme --reason "backup check" >/dev/null
ledger admin project create --id solo --name "Solo" --self-paying --reason "backup check" >/dev/null
credit=$(ledger admin credit --pool payer:acme --source grant --amount 150000 \
    --description "opening grant" --reason "backup check" --json)
credit_position=$(sed -n 's/.*"position":\([0-9]*\).*/\1/p' <<<"$credit")
[ -n "$credit_position" ] || { echo "$credit" >&2; fail "no position in the credit's output"; }
ledger admin credit --pool project:solo --source purchase --amount 20000 \
    --description "top-up" --reason "backup check" >/dev/null
ledger admin correct --entry "je_${credit_position}_0" --amount -25000 \
    --reason "backup check: the grant was 125 credits" >/dev/null
ledger admin org create --id screenrig --name "ScreenRig" --reason "backup check" >/dev/null
ledger admin app create --id demo-app --name "Demo app" --bundle-id ai.screenrig.app --reason "backup check" >/dev/null
unset DATABASE_URL

step "wait until every projection has lag 0"
wait_for_lag_zero "$source_api"

step "record the head and the checksums just before the dump"
recorded_head=$(head_of "$source_api")
recorded_position=${recorded_head%%:*}
recorded_hash=${recorded_head#*:}
step "recorded head $recorded_head"
DATABASE_URL=$source_api ledger projections --checksums >"$work/checksums-source.txt"
psql_ --dbname "$(role_url "$source_su" postgres ledger)" -A -t -F ' | ' -c "$privileges_sql" >"$work/privileges-source.txt"

step "pg_dumpall --roles-only and pg_dump --format=custom (as ledger_backup)"
"$PG_BIN/pg_dumpall" --roles-only --no-role-passwords \
    --dbname "$(role_url "$source_su" ledger_backup postgres)" --file "$work/roles.sql"
"$PG_BIN/pg_dump" --format=custom --file "$work/ledger.dump" "$source_backup"
ls -l "$work/roles.sql" "$work/ledger.dump" >&2

step "stop the projector and the source cluster"
stop_projectors
ledger pg stop --dir "$source_dir"

# --- The restore ------------------------------------------------------------------

step "start a fresh target cluster"
target_dir=$(mktemp -d /tmp/ledger-backup-target.XXXXXX)
target_su=$(start_cluster "$target_dir")
step "target cluster at $target_su"
target_owner=$(role_url "$target_su" ledger_owner ledger)
target_api=$(role_url "$target_su" ledger_api ledger)
target_projector=$(role_url "$target_su" ledger_proj ledger)
target_operator=$(role_url "$target_su" backup_check ledger)

step "recreate the roles (all but the bootstrap superuser, which initdb made), then their passwords"
grep -v '^CREATE ROLE postgres;$' "$work/roles.sql" | psql_ --dbname "$target_su"
for login in ledger_owner ledger_api ledger_proj ledger_backup backup_check; do
    psql_ --dbname "$target_su" -c "ALTER ROLE $login PASSWORD '$login_password'"
done

step "pg_restore --create --exit-on-error"
"$PG_BIN/pg_restore" --create --exit-on-error --dbname "$target_su" "$work/ledger.dump"

step "ledger migrate --status: nothing pending"
status=0
status_out=$(LEDGER_MIGRATION_DATABASE_URL=$target_owner DATABASE_URL=$target_api ledger migrate --status) || status=$?
echo "$status_out" >&2
[ "$status" -eq 0 ] || fail "ledger migrate --status exited $status (3: a migration is pending)"
! grep -qi pending <<<"$status_out" || fail "a migration is pending on the restored database"

step "ledger verify: the whole chain, the same head"
DATABASE_URL=$target_api ledger verify >&2
restored_head=$(head_of "$target_api")
[ "$restored_head" = "$recorded_head" ] || fail "restored head $restored_head, recorded $recorded_head"

step "ledger verify --expect $recorded_head"
DATABASE_URL=$target_api ledger verify --expect "$recorded_head" >&2 \
    || fail "ledger verify --expect $recorded_head exited $?"

step "ledger verify --expect with a wrong hash must exit 1"
# The recorded hash with its last digit changed.
case $recorded_hash in *0) wrong_hash=${recorded_hash%?}1 ;; *) wrong_hash=${recorded_hash%?}0 ;; esac
set +e
DATABASE_URL=$target_api ledger verify --expect "$recorded_position:$wrong_hash" >&2
status=$?
set -e
[ "$status" -eq 1 ] || fail "ledger verify --expect with a wrong hash exited $status, not 1"

step "ledger verify --expect past the head must exit 1"
set +e
DATABASE_URL=$target_api ledger verify --expect "$((recorded_position + 1)):$recorded_hash" >&2
status=$?
set -e
[ "$status" -eq 1 ] || fail "ledger verify --expect past the head exited $status, not 1"

step "ledger projections --checksums: equal to the source's (no projector has run)"
DATABASE_URL=$target_api ledger projections --checksums >"$work/checksums-target.txt"
diff "$work/checksums-source.txt" "$work/checksums-target.txt" >&2 \
    || fail "the restored projections' checksums differ from the source's"
echo "$(grep -c ': [0-9]*:' "$work/checksums-target.txt") tables, identical" >&2

step "owners, privileges, triggers and role memberships: equal to the source's"
psql_ --dbname "$(role_url "$target_su" postgres ledger)" -A -t -F ' | ' -c "$privileges_sql" >"$work/privileges-target.txt"
diff "$work/privileges-source.txt" "$work/privileges-target.txt" >&2 \
    || fail "the restored owners or privileges differ from the source's"
echo "$(wc -l <"$work/privileges-target.txt") objects, identical" >&2

step "ledger replay --dry-run (as ledger_proj): every projection unchanged"
status=0
replay_out=$(DATABASE_URL=$target_projector ledger replay --dry-run 2>"$work/replay.log") || status=$?
echo "$replay_out" >&2
[ "$status" -eq 0 ] || fail "ledger replay --dry-run exited $status"
projections_count=$(grep -c ': position ' "$work/checksums-target.txt")
[ "$(grep -c ": unchanged at position $recorded_position\$" <<<"$replay_out")" -eq "$projections_count" ] \
    || fail "ledger replay --dry-run does not report all $projections_count projections unchanged at $recorded_position"
grep -qx "dry run: nothing swapped" <<<"$replay_out" || fail "ledger replay --dry-run did not end with 'dry run: nothing swapped'"

step "the restored ledger works: the projector (as ledger_proj) and one more act (as $LEDGER_OPERATOR)"
start_projector target "$target_projector"
DATABASE_URL=$target_operator ledger admin credit --pool payer:acme --source grant --amount 1000 \
    --description "after the restore" --reason "backup check" >/dev/null
wait_for_lag_zero "$target_api"
after_head=$(head_of "$target_api")
[ "${after_head%%:*}" -eq $((recorded_position + 1)) ] || fail "head after one append: $after_head"
DATABASE_URL=$target_api ledger verify --expect "$recorded_head" --expect "$after_head" >&2 \
    || fail "ledger verify --expect $recorded_head --expect $after_head exited $?"
stop_projectors
