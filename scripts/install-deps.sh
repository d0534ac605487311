#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, when any is missing:
#   postgresql        server programs for the throwaway test cluster (`ledger pg`), and psql,
#                     which the auditor's script of docs/audit.md reads the log with
#   libpq-dev         libpq, under the Postgres module
#   libssl-dev        OpenSSL, under the Crypto and AppStore modules
#   libmicrohttpd-dev the HTTP server library
#   libcurl4-openssl-dev  libcurl, under the Outbound module (webhook deliveries)
#   python3, curl, openssl  what the docs' command blocks use, run by scripts/check-docs.sh
#                     (openssl: the auditor's check of a signed checkpoint, docs/audit.md)
#   chromium          with --tests only: the headless browser the console's browser tests
#                     drive (DevTools protocol); `make run` does not need it
#   pgbackrest        with --tests only: continuous archiving and point-in-time recovery,
#                     run by scripts/check-pitr.sh (docs/backup.md); `make run` does not
#                     need it, and on Debian 12 it brings nothing else (its libraries are
#                     postgresql's and libpq's)
#   patroni, etcd-server  with --tests only: the failover tests run a Patroni cluster with
#                     an etcd member (ops/patroni/cluster.sh); `make run` does not need them
#   pgbouncer         with --tests only: the connection pooler the PgBouncer tests start on
#                     a port and a configuration of their own (docs/scaling.md, "PgBouncer");
#                     the system service the package installs is stopped and disabled when
#                     this script installed it, and nothing uses its port (6432)
# Packages that come with a system service (postgresql, etcd-server, patroni, pgbouncer) are installed
# without starting it: the tests start their own servers on ports of their own, and a
# distribution's default cluster or etcd would only hold 5432 or 2379. Where systemd runs,
# the etcd and patroni services installed here are also disabled, so that a reboot does not
# start them either.
# Idempotent and silent when everything is there, so the test command can run it every time
# (one dpkg-query, no apt, no network). Swift itself is not installed here: CI images and
# developers bring their own toolchain (see scripts/test.sh for where it is looked for).
set -euo pipefail

packages=(postgresql libpq-dev libssl-dev libmicrohttpd-dev libcurl4-openssl-dev python3 curl openssl)
if [ "${1:-}" = "--tests" ]; then packages+=(chromium pgbackrest patroni etcd-server pgbouncer); fi

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "install-deps: not a Debian-like system; install PostgreSQL (server and libpq), OpenSSL (library and command), libmicrohttpd, libcurl, python3, curl, Chromium, pgBackRest, Patroni, etcd and PgBouncer yourself" >&2
    exit 0
fi

missing=()
for package in "${packages[@]}"; do
    # "install ok installed" is the only state in which the files are really there
    # (a removed-but-not-purged package still has a dpkg record).
    if [ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)" != "install ok installed" ]; then
        missing+=("$package")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
else
    echo "install-deps: missing ${missing[*]}, and not root and no sudo to install them" >&2
    exit 1
fi

echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# Retries for a flaky mirror; the lock timeout waits for unattended-upgrades on a freshly
# booted machine instead of failing at once.
apt_options=(-o Acquire::Retries=3 -o DPkg::Lock::Timeout=300)
started=$SECONDS
# Debian's maintainer scripts start a package's service through invoke-rc.d (or
# deb-systemd-invoke), which asks /usr/sbin/policy-rc.d first: 101 means "do not". Container
# images have one already; elsewhere one is put in place for the install and removed after.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
    "${as_root[@]}" sh -c "printf '#!/bin/sh\n# Written by install-deps.sh for one install: start no service.\nexit 101\n' >$policy && chmod 0755 $policy"
    trap '"${as_root[@]}" rm -f "$policy"' EXIT
fi
"${as_root[@]}" apt-get "${apt_options[@]}" update -qq >&2
# No recommends: postgresql recommends sysstat and friends, which the tests do not need.
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_options[@]}" install -y -qq --no-install-recommends "${missing[@]}" >&2
if [ -d /run/systemd/system ]; then
    for package in "${missing[@]}"; do
        case $package in
            etcd-server) "${as_root[@]}" systemctl disable --now etcd.service >&2 || true ;;
            patroni) "${as_root[@]}" systemctl disable --now patroni.service >&2 || true ;;
        esac
    done
fi
# Debian's pgbouncer package enables and starts a system pooler on port 6432 (unless a
# policy-rc.d forbids it, as in containers). The tests start their own: stop the one this
# run installed, and keep it from starting at boot, so that nothing is left listening.
if [[ " ${missing[*]} " == *" pgbouncer "* ]]; then
    if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
        "${as_root[@]}" systemctl disable --now pgbouncer.service >/dev/null 2>&1 || true
    elif [ -x /etc/init.d/pgbouncer ]; then
        "${as_root[@]}" /etc/init.d/pgbouncer stop >/dev/null 2>&1 || true
        if command -v update-rc.d >/dev/null 2>&1; then "${as_root[@]}" update-rc.d pgbouncer disable >/dev/null 2>&1 || true; fi
    fi
fi
echo "install-deps: done in $((SECONDS - started)) s" >&2
