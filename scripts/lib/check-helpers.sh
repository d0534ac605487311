# Helpers shared by scripts/check-backup.sh and scripts/check-pitr.sh (sourced, not run).
# The caller defines: LEDGER_BIN, PG_BIN, work (its scratch folder), login_password (the
# logins' password), projector_pids=() and fail MESSAGE; optionally projector_env, NAME=VALUE
# settings every `ledger project` it starts is given.

ledger() { "$LEDGER_BIN" "$@"; }
psql_() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }

port_is_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# role_url SUPERUSER_URL ROLE DATABASE: the same server, another role and database (the
# superuser with its own password, any other login with $login_password).
role_url() {
    local rest=${1#*@} credentials=${1#postgresql://}
    credentials=${credentials%%@*}
    if [ "$2" = postgres ]; then echo "postgresql://$credentials@${rest%%/*}/$3"
    else echo "postgresql://$2:$login_password@${rest%%/*}/$3"; fi
}

# start_projector NAME URL: `ledger project` in the background, as the projector's role.
start_projector() {
    env DATABASE_URL="$2" "${projector_env[@]}" "$LEDGER_BIN" project >"$work/projector-$1.log" 2>&1 &
    projector_pids+=("$!")
}

stop_projectors() {
    local pid
    for pid in "${projector_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${projector_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    projector_pids=()
}

# wait_for_lag_zero URL: every projection created and at the head, within 20 s.
wait_for_lag_zero() {
    local out
    for _ in $(seq 100); do
        if out=$(DATABASE_URL=$1 ledger projections 2>&1) \
            && ! grep -q "not created" <<<"$out" \
            && [ "$(grep -c ', lag 0, ' <<<"$out")" -eq "$(grep -c ': position ' <<<"$out")" ]; then
            echo "$out" >&2
            return 0
        fi
        sleep 0.2
    done
    echo "$out" >&2
    fail "the projections did not reach the head within 20 s"
}

# head_of URL: the verified head, POSITION:HASH.
head_of() {
    local report head
    report=$(DATABASE_URL=$1 ledger verify --json) || { echo "$report" >&2; fail "ledger verify --json failed"; }
    head=$(sed -n 's/.*"head_hash":"\([0-9a-f]*\)".*"head_position":\([0-9]*\).*"valid":true.*/\2:\1/p' <<<"$report")
    [ -n "$head" ] || { echo "$report" >&2; fail "no valid head in ledger verify --json"; }
    echo "$head"
}
