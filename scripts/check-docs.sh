#!/usr/bin/env bash
# Runs every fenced shell block of README.md and docs/*.md against a fresh `ledger dev`, so
# that the docs cannot drift from the code.
#
#   LEDGER_BIN=path/to/ledger bash scripts/check-docs.sh [--verbose] [--keep]
#
# LEDGER_BIN is the binary under test (default .build/debug/ledger; this script builds
# nothing). --verbose prints every block's output, not only a failed one's; --keep keeps the
# work directory (everything in it stopped) and prints where it is. Exit status 0 when every
# block passed or was skipped and `ledger --help` agrees with the docs, 1 when one failed, 2
# when the check itself could not run.
#
# How, and why so:
#
# - The docs are read in a newcomer's order, README first: README.md, docs/api.md (the
#   tour of the reads README starts, on the demo as `ledger dev` seeded it), docs/catalog.md
#   (configures an app of its own), docs/webhooks.md (a subscription's whole story,
#   purchase to refund, on the demo organization's App Store subscription), docs/appstore.md
#   (buys that subscription again and upgrades it), every other docs/*.md in name order, and docs/operations.md last (its
#   `ledger replay` rebuilds the projections over everything the pages before appended and
#   must find them equal). Shell blocks are ``` or ~~~ fences whose info string starts
#   with `sh`, `bash` or `shell` (scripts/docs_blocks.py extracts them).
# - The docs name `.ledger/demo.json`, `.ledger/appstore-test-ca/…` and
#   `$PWD/.build/release` relative to the clone. So the blocks run in a throwaway work
#   directory (under /tmp, mode 0755 so that PostgreSQL's account can enter it when we are
#   root) laid out as a clone is for them: `.ledger/` there is `ledger dev`'s data
#   directory (LEDGER_DATA_DIR is left unset: its default, `.ledger` in the working
#   directory, is what a newcomer gets), and `.build/release/ledger` there is a symlink to
#   LEDGER_BIN, on the PATH, so README's `export PATH="$PWD/.build/release:$PATH"` is true
#   as written. Migrations come from this repository's sql/ (LEDGER_SQL_DIR), since a
#   LEDGER_BIN outside the clone would not find them. The repository itself is not touched.
# - DATABASE_URL, LEDGER_MIGRATION_DATABASE_URL, every other LEDGER_* and PG* variable are
#   unset, so that commands find the dev cluster through `.ledger/demo.json` exactly as a
#   newcomer's would: `ledger admin` acts as the login `ledger dev` made for the account
#   running the check (LEDGER_OPERATOR unset too).
# - The docs run on any port: a block that talks to `ledger dev` reads the API's URL from
#   `.ledger/demo.json` (`BASE=` from `base_url` on its first line; the operations
#   listener's from `operations.url`), as a reader whose 8080 was taken must. To prove it,
#   `ledger dev` never gets a default port here: the API (LEDGER_PORT), the operations
#   listener (LEDGER_METRICS_ADDRESS: /metrics, and /readyz with positions), the console
#   (LEDGER_CONSOLE_ADDRESS) and the cluster (LEDGER_DEV_POSTGRES_PORT) each get a free
#   port of 15000-29999, never 8080, 9464 or 8081, and nothing in the blocks is rewritten.
#   They listen on every address (LEDGER_HOST=0.0.0.0, …), as in the Containerfile.
#   A block that names a default address (127.0.0.1:8080, :8081, :9464, or localhost's)
#   fails before it runs, whatever listens there. The ports the walkthroughs take
#   themselves (8095, webhooks.md's receiver; 8096, 9466 and 54339, scaling.md's second API
#   and standby) and the README's alternates (8090, 8091, 9465) are outside that range.
# - `make run` is what the harness stands in for: it starts `ledger dev` itself, waits for
#   its banner ("ledger is running at …", printed after demo.json is written) and for
#   /readyz to answer 200, as a newcomer does before typing the next command.
# - Each block runs alone, in a fresh `bash -euo pipefail`, in the work directory, with
#   stdin from /dev/null (no command may wait for a terminal) and a time limit
#   (DOCS_CHECK_BLOCK_TIMEOUT, 60 s). Nothing carries over from one block to the next but
#   the environment above and what the commands leave in the database and the work
#   directory: every block must be runnable on its own, as a reader jumping to a section
#   would run it, and a failure does not cascade into the blocks after it.
# - A block leaves nothing behind: its TMPDIR is a folder of the check's own, which must be
#   empty again when the block is done (what `mktemp` made, the block removes), and a
#   block that names a fixed path in /tmp fails before it runs.
# - `curl` on the blocks' PATH is a wrapper around the real one that adds --fail-with-body
#   and --show-error (an HTTP status >= 400 fails the block, exit 22, and the answer's body
#   is still shown) and notes each answer's status and URL on stderr.
# - A block is skipped only when the line right before its opening fence is
#   `<!-- docs-check: skip: REASON -->`; the reason is printed. A malformed or misplaced
#   marker is an error.
# - Before any block, `ledger --help` is held against the docs (scripts/docs_help.py, four
#   checks, each a PASS or FAIL line): every variable it prints is a row of
#   docs/operations.md's settings table and every command one of its commands table; the
#   docs name no LEDGER_* variable and no `ledger COMMAND` it does not print (the tests',
#   benchmarks' and tooling's variables excepted, each by name with its reason); and a
#   default the docs state, in a table's `default` column or as "`VARIABLE`, default …",
#   is the one it prints.
# - Whatever happens (failure, Ctrl-C, SIGTERM), `ledger dev` gets SIGINT and up to 30 s
#   to stop its API, projector and cluster (then SIGTERM/SIGKILL, and `ledger pg stop` on
#   its cluster as a safety net), and the work directory is removed.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

log() { echo "docs-check: $*" >&2; }

verbose=0
keep=0
for arg in "$@"; do
    case "$arg" in
        -v|--verbose) verbose=1 ;;
        --keep) keep=1 ;;
        -h|--help) sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) log "unknown argument $arg (--verbose, --keep)"; exit 2 ;;
    esac
done

# Read before the environment is cleaned (LEDGER_BIN is a LEDGER_* variable too).
ledger_bin=${LEDGER_BIN:-$repo/.build/debug/ledger}
block_timeout=${DOCS_CHECK_BLOCK_TIMEOUT:-60}
if [ ! -x "$ledger_bin" ] || [ -d "$ledger_bin" ]; then
    log "no executable ledger at $ledger_bin: build it first, or set LEDGER_BIN"
    exit 2
fi
ledger_bin=$(readlink -f "$ledger_bin")
real_curl=$(command -v curl) || { log "curl is needed"; exit 2; }
command -v python3 >/dev/null || { log "python3 is needed"; exit 2; }
blocks_py=(python3 -B "$repo/scripts/docs_blocks.py")

started=${EPOCHREALTIME/,/.}
elapsed() { awk -v a="$started" -v b="${EPOCHREALTIME/,/.}" 'BEGIN { printf "%.1f", b - a }'; }

# The docs, in order (see above).
cd "$repo"
first=(README.md docs/api.md docs/catalog.md docs/webhooks.md docs/appstore.md)
last=(docs/operations.md)
files=("${first[@]}")
for doc in docs/*.md; do
    case " ${first[*]} ${last[*]} " in *" $doc "*) ;; *) files+=("$doc") ;; esac
done
files+=("${last[@]}")
for doc in "${first[@]}" "${last[@]}"; do
    [ -f "$doc" ] || { log "$doc is in this script's order but does not exist: update the order"; exit 2; }
done

# --- The work directory, cleaned up whatever happens -----------------------------------

work=$(mktemp -d /tmp/ledger-docs-check.XXXXXX)
chmod 755 "$work"
dev_pid=""
block_pid=""

process_alive() {
    local state
    [ -n "$1" ] && [ -r "/proc/$1/stat" ] || return 1
    state=$(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) || return 1
    [ -n "$state" ] && [ "$state" != Z ]
}

# Stops `ledger dev` with SIGINT (what Ctrl-C sends), waiting up to 30 s; prints its exit
# status on stdout. Harder measures only when it does not stop.
dev_status=""
stop_dev() {
    [ -n "$dev_pid" ] || return 0
    local pid=$dev_pid children i
    dev_pid=""
    if process_alive "$pid"; then
        kill -INT "$pid" 2>/dev/null || true
        for ((i = 0; i < 300; i++)); do
            process_alive "$pid" || break
            sleep 0.1
        done
        if process_alive "$pid"; then
            log "ledger dev did not stop within 30 s of SIGINT; sending SIGTERM, then SIGKILL"
            children=$(pgrep -P "$pid" || true)
            kill -TERM "$pid" $children 2>/dev/null || true
            sleep 3
            kill -KILL "$pid" $children 2>/dev/null || true
        fi
    fi
    dev_status=0
    wait "$pid" 2>/dev/null || dev_status=$?
}

cleanup() {
    local status=$?
    set +e
    trap - EXIT INT TERM HUP
    if [ -n "$block_pid" ] && process_alive "$block_pid"; then
        kill -TERM -- "-$block_pid" 2>/dev/null || kill -TERM "$block_pid" 2>/dev/null
        wait "$block_pid" 2>/dev/null
    fi
    stop_dev
    # A safety net: a no-op when `ledger dev` stopped its cluster, as it does on SIGINT.
    if [ -d "$work/.ledger/postgres" ]; then
        "$ledger_bin" pg stop --dir "$work/.ledger/postgres" >/dev/null 2>&1 ||
            log "warning: could not stop the cluster in $work/.ledger/postgres"
    fi
    if [ "$keep" = 1 ]; then
        log "kept $work"
    else
        rm -rf "$work"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# --- The environment of a newcomer's terminal ------------------------------------------

while read -r name; do
    unset "$name"
done < <(compgen -e | grep -E '^(LEDGER_|PG)|^DATABASE_URL$' || true)

mkdir -p "$work/.build/release" "$work/bin" "$work/blocks"
ln -s "$ledger_bin" "$work/.build/release/ledger"
cat >"$work/bin/curl" <<EOF
#!/usr/bin/env bash
# scripts/check-docs.sh: curl as the docs call it, but an HTTP error fails (exit 22) and
# still shows the answer's body; each answer's status and URL are noted on stderr.
exec "$real_curl" --fail-with-body --show-error \\
    --write-out '%{stderr}\\n<- HTTP %{response_code} %{method} %{url_effective}\\n' "\$@"
EOF
chmod 755 "$work/bin/curl"

# Never a default port (see above): free-port without --prefer picks one of 15000-29999.
avoid=(--avoid 18181 --avoid 54481)
http_port=$("${blocks_py[@]}" free-port "${avoid[@]}")
metrics_port=$("${blocks_py[@]}" free-port "${avoid[@]}" --avoid "$http_port")
console_port=$("${blocks_py[@]}" free-port "${avoid[@]}" --avoid "$http_port" --avoid "$metrics_port")
pg_port=$("${blocks_py[@]}" free-port "${avoid[@]}" --avoid "$http_port" --avoid "$metrics_port" --avoid "$console_port")
export PATH="$work/bin:$work/.build/release:$PATH"
export LEDGER_SQL_DIR="$repo/sql"
export LEDGER_PORT="$http_port"
export LEDGER_DEV_POSTGRES_PORT="$pg_port"
# Every address, as the Containerfile runs it: what a reader's browser and curl reach on
# the published ports (127.0.0.1, localhost) must work the same way.
export LEDGER_HOST=0.0.0.0
export LEDGER_METRICS_ADDRESS="0.0.0.0:$metrics_port"
export LEDGER_CONSOLE_ADDRESS="0.0.0.0:$console_port"
export LEDGER_CONSOLE_URL="http://localhost:$console_port"

"${blocks_py[@]}" extract --out "$work/blocks" "${files[@]}" >"$work/manifest" || exit 2
log "$(wc -l <"$work/manifest") shell blocks in ${files[*]}"

passed=0
failed=0
skipped=0
failures=()

# --- `ledger --help` against the docs (before ledger dev: it needs none) -------------------

# Every command and variable `ledger --help` prints is in operations.md's tables, the docs
# name no other, and a default the docs state is the printed one (scripts/docs_help.py).
"$ledger_bin" --help >"$work/ledger-help.txt" 2>&1 || { log "ledger --help failed:"; sed 's/^/    | /' "$work/ledger-help.txt" >&2; exit 2; }
help_status=0
(cd "$repo" && python3 -B "$repo/scripts/docs_help.py" --help-output "$work/ledger-help.txt" \
    --reference docs/operations.md "${files[@]}") >"$work/help-check.out" || help_status=$?
[ "$help_status" -le 1 ] || { sed 's/^/    | /' "$work/help-check.out" >&2; exit 2; }
cat "$work/help-check.out"
passed=$((passed + $(grep -c '^PASS ' "$work/help-check.out" || true)))
while IFS= read -r line; do
    failed=$((failed + 1))
    failures+=("$line")
done < <(sed -n 's/^FAIL \(ledger --help ([a-z]*)\):.*/\1/p' "$work/help-check.out")

# --- ledger dev (what `make run` runs) --------------------------------------------------

cd "$work"
# SIGINT and SIGQUIT back to their defaults: bash starts background commands with them
# ignored, and SIGINT is how this script (like Ctrl-C) stops `ledger dev`.
env --default-signal=INT,QUIT ledger dev >"$work/dev.log" 2>&1 </dev/null &
dev_pid=$!
log "ledger dev (pid $dev_pid): API on 0.0.0.0:$http_port, operations on 0.0.0.0:$metrics_port, console on 0.0.0.0:$console_port, PostgreSQL on 127.0.0.1:$pg_port, in $work"

deadline=$((SECONDS + ${DOCS_CHECK_START_TIMEOUT:-90}))
until grep -q 'ledger is running at' "$work/dev.log" 2>/dev/null; do
    if ! process_alive "$dev_pid"; then
        log "ledger dev exited before it was ready; its output:"
        sed 's/^/    | /' "$work/dev.log" >&2
        exit 2
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
        log "ledger dev was not ready within ${DOCS_CHECK_START_TIMEOUT:-90} s; its output:"
        sed 's/^/    | /' "$work/dev.log" >&2
        exit 2
    fi
    sleep 0.2
done
deadline=$((SECONDS + 30))
until "$real_curl" -sf -o /dev/null "http://127.0.0.1:$http_port/readyz"; do
    if [ "$SECONDS" -ge "$deadline" ]; then
        log "/readyz did not answer 200 within 30 s of the banner; running the blocks anyway"
        break
    fi
    sleep 0.2
done
log "ledger dev ready after $(elapsed) s"

# --- The blocks --------------------------------------------------------------------------

default_address='(127\.0\.0\.1|localhost|\[::1\]):(8080|8081|9464)([^0-9]|$)'
while IFS=$'\t' read -r name file line action reason; do
    where="$file:$line"
    if [ "$action" = skip ]; then
        echo "SKIP $where: $reason"
        skipped=$((skipped + 1))
        continue
    fi
    out="$work/blocks/$name.out"
    # A default address in a block would talk to whatever holds it, not to this ledger dev;
    # a fixed file in /tmp would be another reader's, or left behind.
    if hardcoded=$(grep -nE "$default_address" "$work/blocks/$name"); then
        echo "FAIL $where: names a default address; read the URL from .ledger/demo.json (BASE=… base_url, operations.url):"
        sed 's/^/    > /' <<<"$hardcoded"
        failed=$((failed + 1))
        failures+=("$where")
        continue
    fi
    if fixed=$(grep -nE '(^|[^[:alnum:]_.])/tmp/' "$work/blocks/$name"); then
        echo "FAIL $where: names a fixed path in /tmp; make it with mktemp (mktemp -d) and remove it in the block:"
        sed 's/^/    > /' <<<"$fixed"
        failed=$((failed + 1))
        failures+=("$where")
        continue
    fi
    block_started=${EPOCHREALTIME/,/.}
    # In the background and waited for, so that a signal to this script is handled at once;
    # timeout(1) puts the block in a process group of its own, which cleanup can end.
    # A block's `mktemp` lands in the check's own folder, which must be empty again when the
    # block is done: what a block makes in TMPDIR it removes.
    mkdir -p "$work/tmp"
    (export TMPDIR="$work/tmp"; exec timeout -k 5 "$block_timeout" bash -euo pipefail "$work/blocks/$name") >"$out" 2>&1 </dev/null &
    block_pid=$!
    status=0
    wait "$block_pid" || status=$?
    block_pid=""
    took=$(awk -v a="$block_started" -v b="${EPOCHREALTIME/,/.}" 'BEGIN { printf "%.1f", b - a }')
    left=$(cd "$work/tmp" && ls -A)
    if [ "$status" -eq 0 ] && [ -n "$left" ]; then
        echo "FAIL $where (${took} s): left in TMPDIR (remove what mktemp made, in the block): $(echo $left)"
        sed 's/^/    > /' "$work/blocks/$name"
        failed=$((failed + 1))
        failures+=("$where")
    elif [ "$status" -eq 0 ]; then
        echo "PASS $where (${took} s)"
        passed=$((passed + 1))
        [ "$verbose" = 0 ] || sed 's/^/    | /' "$out"
    else
        if [ "$status" -eq 124 ]; then
            echo "FAIL $where (timed out after $block_timeout s)"
        else
            echo "FAIL $where (exit status $status, ${took} s); the block, then its output:"
        fi
        sed 's/^/    > /' "$work/blocks/$name"
        sed 's/^/    | /' "$out"
        failed=$((failed + 1))
        failures+=("$where")
    fi
    rm -rf "$work/tmp"
done <"$work/manifest"

# --- The dashboard against what this ledger dev exports ------------------------------------

# The blocks above exercised reads, writes, the catalog and App Store verifications, so the
# scrape (of the operations listener, where the metrics are) has the series the dashboard
# (ops/grafana/ledger-dashboard.json) queries.
if "$real_curl" -sf "http://127.0.0.1:$metrics_port/metrics" >"$work/metrics.txt" 2>/dev/null \
    && python3 "$repo/scripts/check-dashboard.py" "$work/metrics.txt" >"$work/dashboard.out" 2>&1; then
    echo "PASS ops/grafana/ledger-dashboard.json against /metrics"
    passed=$((passed + 1))
else
    echo "FAIL ops/grafana/ledger-dashboard.json against /metrics:"
    sed 's/^/    | /' "$work/dashboard.out" 2>/dev/null || true
    failed=$((failed + 1))
    failures+=("dashboard")
fi

# --- Stop, and the verdict --------------------------------------------------------------

if ! process_alive "$dev_pid"; then
    echo "FAIL ledger dev stopped while the blocks ran; its output:"
    sed 's/^/    | /' "$work/dev.log"
    failed=$((failed + 1))
    failures+=("ledger dev")
fi
if [ "$failed" -gt 0 ]; then
    for logfile in "$work/.ledger/logs/api.log" "$work/.ledger/logs/projector.log"; do
        [ -s "$logfile" ] || continue
        echo "the last lines of ${logfile#"$work/"}:"
        tail -n 15 "$logfile" | sed 's/^/    | /'
    done
fi
stop_dev
if [ "$dev_status" != 0 ]; then
    echo "FAIL ledger dev exited with status $dev_status after SIGINT; its output:"
    sed 's/^/    | /' "$work/dev.log"
    failed=$((failed + 1))
    failures+=("ledger dev's exit")
fi

echo "docs-check: $passed passed, $skipped skipped, $failed failed in $(elapsed) s"
if [ "$failed" -gt 0 ]; then
    echo "docs-check: failed: ${failures[*]}"
    exit 1
fi
