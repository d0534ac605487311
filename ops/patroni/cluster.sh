#!/usr/bin/env bash
# A Patroni cluster on one machine: one etcd member and two or three PostgreSQL nodes under
# Patroni, on loopback ports. The failover tests run it (Tests/APITests/Failover); an operator
# reads it as the starting point of a real deployment (docs/scaling.md, "Failover with
# Patroni", says which settings to change for production and why).
#
#   ops/patroni/cluster.sh start DIR    write the configuration into DIR, start etcd and the
#                                       nodes in the background (PIDs in DIR/*/pid), wait
#                                       for a leader, a synchronous standby and every replica
#                                       streaming; print the superuser's multi-host URL
#   ops/patroni/cluster.sh status DIR   `patronictl list`
#   ops/patroni/cluster.sh url DIR      the superuser's multi-host URL again
#   ops/patroni/cluster.sh stop DIR     stop every process started here, by its PID
#
# DIR is a folder of the cluster's own (under /tmp when run as root: see "Root" below). Its
# layout:
#
#   secrets/           the passwords of the superuser, the replication and the rewind users
#   etcd/etcd.yml      etcd's configuration; etcd/data, etcd/etcd.log, etcd/pid
#   nodeN/patroni.yml  node N's Patroni configuration; nodeN/data (PGDATA, made by Patroni),
#                      nodeN/patroni.log (Patroni's and PostgreSQL's messages), nodeN/pid
#
# Settings, from the environment (the defaults are this repository's test ports, below
# Linux's ephemeral range of 32768-60999: a port in it can be held for a moment by any
# client's outgoing connection, and a node that cannot bind fails its bootstrap):
#   PATRONI_NODES=3                        2 or 3 PostgreSQL nodes (with 2, writes wait while
#                                          one is down: synchronous_mode_strict)
#   PATRONI_PG_PORTS="25475 25476 25477"   PostgreSQL's port of each node
#   PATRONI_API_PORTS="25486 25487 25488"  Patroni's REST API port of each node
#   PATRONI_ETCD_CLIENT_PORT=25480, PATRONI_ETCD_PEER_PORT=25485
#   PATRONI_TTL=10 PATRONI_LOOP_WAIT=1 PATRONI_RETRY_TIMEOUT=4
#       how fast a dead leader is noticed. Short for a test; Patroni's defaults (30, 10, 10)
#       in production. Patroni wants loop_wait + 2 * retry_timeout <= ttl.
#   PATRONI_FSYNC=on                       `off` for a throwaway test cluster only
#   PATRONI_PG_BIN_DIR                     default: the highest /usr/lib/postgresql/*/bin
#
# Root. PostgreSQL refuses to run as root, and CI runs as root. As root, Patroni (and so the
# PostgreSQL it starts) runs as the `postgres` account that Debian's package makes (else
# `ledger-postgres`, as `ledger pg` does), through setpriv, which execs: the PID recorded is
# Patroni's own. The node folders are that account's; DIR is made enterable (0711) for it.
#
# Requires: etcd (Debian: etcd-server), patroni (and its /usr/bin/python3), curl and
# PostgreSQL's server programs; scripts/install-deps.sh --tests installs them.
set -euo pipefail

usage() {
    sed -n '7,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

[ $# -eq 2 ] || usage
command=$1
dir=$(realpath -m "$2")

nodes=${PATRONI_NODES:-3}
read -r -a pg_ports <<<"${PATRONI_PG_PORTS:-25475 25476 25477}"
read -r -a api_ports <<<"${PATRONI_API_PORTS:-25486 25487 25488}"
etcd_client_port=${PATRONI_ETCD_CLIENT_PORT:-25480}
etcd_peer_port=${PATRONI_ETCD_PEER_PORT:-25485}
ttl=${PATRONI_TTL:-10}
loop_wait=${PATRONI_LOOP_WAIT:-1}
retry_timeout=${PATRONI_RETRY_TIMEOUT:-4}
fsync=${PATRONI_FSYNC:-on}
scope=ledger

log() { echo "patroni-cluster: $*" >&2; }
fail() { log "$*"; exit 1; }

case $nodes in 2 | 3) ;; *) fail "PATRONI_NODES must be 2 or 3, not $nodes" ;; esac
[ ${#pg_ports[@]} -ge "$nodes" ] && [ ${#api_ports[@]} -ge "$nodes" ] || fail "one PostgreSQL port and one API port per node"

# The account that runs Patroni and PostgreSQL, and the command prefix that switches to it.
as_account=()
account=$(id -un)
if [ "$(id -u)" -eq 0 ]; then
    if id postgres >/dev/null 2>&1; then
        account=postgres
    else
        account=ledger-postgres
        id "$account" >/dev/null 2>&1 ||
            useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$account"
    fi
    as_account=(setpriv --reuid="$account" --regid="$(id -g "$account")" --init-groups --)
fi

bin_dir=${PATRONI_PG_BIN_DIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}

# The process in pid file $1, when it is still the program named $2 (a PID can be reused).
live_pid() {
    local pid
    pid=$(cat "$1" 2>/dev/null) || return 1
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$2" && echo "$pid"
}

# Runs a command as a daemon of its own, whoever started this script: with no signal blocked
# (a caller's thread may block TERM, and a blocked mask is inherited: Patroni would never
# stop) and no file descriptor but 0-2 inherited (a caller may hold one open to learn that
# this script ended, which a daemon keeping it would hide). It execs, so it is started with &
# and $! is the daemon's own PID.
detached() {
    exec /usr/bin/python3 -c '
import os, signal, sys
signal.pthread_sigmask(signal.SIG_SETMASK, [])
os.closerange(3, os.sysconf("SC_OPEN_MAX"))
os.execvp(sys.argv[1], sys.argv[1:])
' "$@"
}

port_is_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# The superuser's URL for every node at once: libpq tries the hosts in turn and keeps the one
# that takes writes.
multi_host_url() {
    local hosts="" ports="" i
    for ((i = 0; i < nodes; i++)); do
        hosts+="${hosts:+,}127.0.0.1"
        ports+="${ports:+,}${pg_ports[$i]}"
    done
    echo "postgresql://postgres:$(cat "$dir/secrets/superuser")@/postgres?host=$hosts&port=$ports&target_session_attrs=read-write&connect_timeout=2"
}

write_configuration() {
    mkdir -p "$dir/secrets" "$dir/etcd"
    chmod 0711 "$dir"
    chmod 0700 "$dir/secrets" "$dir/etcd"
    local user
    for user in superuser replication rewind; do
        [ -s "$dir/secrets/$user" ] || (umask 077 && od -An -N18 -tx1 /dev/urandom | tr -d ' \n' >"$dir/secrets/$user")
    done

    # One etcd member: enough for a test on one machine. Production runs three or five, on
    # machines of their own or beside each node (docs/scaling.md).
    cat >"$dir/etcd/etcd.yml" <<EOF
name: etcd1
data-dir: $dir/etcd/data
listen-client-urls: http://127.0.0.1:$etcd_client_port
advertise-client-urls: http://127.0.0.1:$etcd_client_port
listen-peer-urls: http://127.0.0.1:$etcd_peer_port
initial-advertise-peer-urls: http://127.0.0.1:$etcd_peer_port
initial-cluster: etcd1=http://127.0.0.1:$etcd_peer_port
initial-cluster-token: $scope-$(basename "$dir")
initial-cluster-state: new
# Patroni's etcd3 client speaks etcd's JSON gateway to the v3 API. The command line has it on
# by default, a configuration file does not.
enable-grpc-gateway: true
EOF

    local i name
    for ((i = 0; i < nodes; i++)); do
        name=node$((i + 1))
        mkdir -p "$dir/$name"
        (umask 077 && cat >"$dir/$name/patroni.yml") <<EOF
# Node $name of the Patroni cluster "$scope" (written by ops/patroni/cluster.sh).
scope: $scope
name: $name
restapi:
  listen: 127.0.0.1:${api_ports[$i]}
  connect_address: 127.0.0.1:${api_ports[$i]}
# etcd's v3 API, through its JSON gateway (the v2 API and the "etcd:" section are deprecated,
# and etcd 3.4 serves v2 only with --enable-v2).
etcd3:
  hosts: 127.0.0.1:$etcd_client_port
bootstrap:
  # Written to etcd once, when the cluster is made; \`patronictl edit-config\` changes them later.
  dcs:
    ttl: $ttl
    loop_wait: $loop_wait
    retry_timeout: $retry_timeout
    # Never promote a standby that may miss an acknowledged commit.
    maximum_lag_on_failover: 0
    # A commit is answered once a synchronous standby has it, and never without one: with no
    # standby left, appends wait rather than risk being lost with the primary.
    synchronous_mode: true
    synchronous_mode_strict: true
    synchronous_node_count: 1
    # A primary whose PostgreSQL crashed is failed over at once rather than restarted in
    # place: with synchronous replication nothing acknowledged is lost by it, and the old
    # primary comes back as a standby (pg_rewind) instead of after its crash recovery.
    primary_start_timeout: 0
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        wal_level: replica
        hot_standby: "on"
        # pg_rewind needs hint-bit changes in the WAL (also implied by the data checksums).
        wal_log_hints: "on"
        full_page_writes: "on"
        fsync: "$fsync"
        max_connections: 300
        max_wal_senders: 10
        max_replication_slots: 10
  initdb:
    - encoding: UTF8
    - locale: C
    - data-checksums
postgresql:
  listen: 127.0.0.1:${pg_ports[$i]}
  connect_address: 127.0.0.1:${pg_ports[$i]}
  data_dir: $dir/$name/data
  bin_dir: $bin_dir
  pgpass: $dir/$name/pgpass
  parameters:
    unix_socket_directories: $dir/$name
  basebackup:
    - checkpoint: fast
  authentication:
    superuser:
      username: postgres
      password: $(cat "$dir/secrets/superuser")
    replication:
      username: replicator
      password: $(cat "$dir/secrets/replication")
    # pg_rewind connects with a user of its own, with only the rights it needs (Patroni
    # creates it at bootstrap).
    rewind:
      username: rewinder
      password: $(cat "$dir/secrets/rewind")
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 scram-sha-256
    - host all all 127.0.0.1/32 scram-sha-256
EOF
        if [ ${#as_account[@]} -gt 0 ]; then chown -R "$account:" "$dir/$name"; fi
        chmod 0700 "$dir/$name"
    done
}

# Waits until one node leads, one is its synchronous standby and every replica streams from
# it; up to $1 seconds.
wait_until_ready() {
    local deadline=$((SECONDS + $1)) i
    while [ $SECONDS -lt $deadline ]; do
        for ((i = 0; i < nodes; i++)); do
            if curl -fsS --max-time 2 "http://127.0.0.1:${api_ports[$i]}/cluster" 2>/dev/null | /usr/bin/python3 -c '
import json, sys, urllib.request
nodes = int(sys.argv[1])
members = json.load(sys.stdin)["members"]
leaders = [m for m in members if m["role"] == "leader" and m["state"] == "running"]
sync = [m for m in members if m["role"] == "sync_standby" and m["state"] == "running"]
if len(members) != nodes or len(leaders) != 1 or len(sync) != 1:
    sys.exit(1)
status = json.load(urllib.request.urlopen(leaders[0]["api_url"].rsplit("/", 1)[0] + "/", timeout=2))
streaming = [r for r in status.get("replication", []) if r.get("state") == "streaming"]
sys.exit(0 if len(streaming) == nodes - 1 else 1)
' "$nodes" 2>/dev/null; then
                return 0
            fi
        done
        sleep 0.2
    done
    return 1
}

start() {
    command -v etcd >/dev/null || fail "no etcd: install it (scripts/install-deps.sh --tests; Debian: etcd-server)"
    command -v patroni >/dev/null || fail "no patroni: install it (scripts/install-deps.sh --tests; Debian: patroni)"
    [ -x "$bin_dir/pg_ctl" ] || fail "no PostgreSQL server programs in '$bin_dir' (Debian: postgresql)"
    local i port
    for port in "$etcd_client_port" "$etcd_peer_port" "${pg_ports[@]:0:$nodes}" "${api_ports[@]:0:$nodes}"; do
        port_is_taken "$port" && fail "port $port is taken; is a cluster already running? ($0 stop DIR)"
    done
    write_configuration
    # Whatever went wrong, nothing started here is left running.
    trap 'status=$?; [ $status -eq 0 ] || stop; exit $status' EXIT

    detached etcd --config-file "$dir/etcd/etcd.yml" >>"$dir/etcd/etcd.log" 2>&1 </dev/null &
    local etcd_pid=$!
    echo "$etcd_pid" >"$dir/etcd/pid"
    # Alive by `kill -0` of this shell's own child, not by live_pid: until the forked shell has
    # exec'd, its command line names this script, not etcd (CI lost a run to that window).
    local deadline=$((SECONDS + 90))  # etcd starts slowly beside a busy test run on two cores
    until curl -fsS --max-time 1 "http://127.0.0.1:$etcd_client_port/health" 2>/dev/null | grep -q '"health":"true"'; do
        [ $SECONDS -lt $deadline ] && kill -0 "$etcd_pid" 2>/dev/null ||
            { tail -n 20 "$dir/etcd/etcd.log" >&2; fail "etcd did not become healthy"; }
        sleep 0.1
    done

    # The first node bootstraps (initdb) while the others wait for it, then copy it
    # (pg_basebackup): started together, they race for the initialize key in etcd.
    # Each node starts in its own folder: Patroni's helpers change back to the directory it
    # started in, which the account it runs as must be able to enter (a checkout under a
    # private folder, as CI's clone is, is not).
    for ((i = 0; i < nodes; i++)); do
        (cd "$dir/node$((i + 1))" && detached "${as_account[@]}" env HOME="$dir/node$((i + 1))" patroni "$dir/node$((i + 1))/patroni.yml" \
            >>"$dir/node$((i + 1))/patroni.log" 2>&1 </dev/null) &
        echo $! >"$dir/node$((i + 1))/pid"
    done
    if ! wait_until_ready 90; then
        for ((i = 1; i <= nodes; i++)); do
            log "node$i:"
            # PostgreSQL's own complaints first (a traceback of Patroni's can hide them), then the end.
            grep -E 'FATAL|PANIC|ERROR|could not' "$dir/node$i/patroni.log" 2>/dev/null | tail -n 10 >&2 || true
            tail -n 15 "$dir/node$i/patroni.log" >&2 || true
        done
        fail "no leader with a streaming synchronous standby within 90 s (logs in $dir/node*/patroni.log)"
    fi
    multi_host_url
}

# TERM, then KILL after $3 seconds, of the process in pid file $1 if it is still program $2.
stop_process() {
    local pid
    pid=$(live_pid "$1" "$2") || { rm -f "$1"; return 0; }
    kill -TERM "$pid" 2>/dev/null || true
    local deadline=$((SECONDS + $3))
    while kill -0 "$pid" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
        log "$2 ($pid) did not stop within $3 s: killing it"
        kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$1"
}

stop() {
    local i stopping=()
    # Patroni stops its PostgreSQL on TERM (a fast shutdown); all nodes at once, so that no
    # replica takes over from a leader that is going away too. Only those stops are waited
    # for: when `start` fails, etcd and the nodes are this shell's children too, and a bare
    # `wait` would wait for etcd, which is stopped after.
    for ((i = 1; i <= 3; i++)); do
        if [ -f "$dir/node$i/pid" ]; then
            stop_process "$dir/node$i/pid" patroni 30 &
            stopping+=($!)
        fi
    done
    [ ${#stopping[@]} -eq 0 ] || wait "${stopping[@]}"
    # A PostgreSQL left behind by a Patroni that had to be killed.
    for ((i = 1; i <= 3; i++)); do
        [ -f "$dir/node$i/data/postmaster.pid" ] || continue
        head -n 1 "$dir/node$i/data/postmaster.pid" >"$dir/node$i/postmaster.pid.copy"
        stop_process "$dir/node$i/postmaster.pid.copy" postgres 10
    done
    [ -f "$dir/etcd/pid" ] && stop_process "$dir/etcd/pid" etcd 10
    return 0
}

case $command in
    start) start ;;
    stop) stop ;;
    status) patronictl -c "$dir/node1/patroni.yml" list ;;
    url) multi_host_url ;;
    *) usage ;;
esac
