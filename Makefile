# Everyday entry points. Each target that builds installs the Debian packages first when
# any is missing (scripts/install-deps.sh: silent and instant when nothing is missing).
#
#   make run     release build, then `ledger dev`: a local cluster under .ledger/, migrations,
#                demo data, API and projector (Ctrl-C stops everything)
#   make test    the test command, scripts/test.sh (TEST_ARGS="--filter X" to narrow it)
#   make build   debug build of everything
#   make bench   release build, then `ledger-bench append` against a throwaway cluster with
#                PostgreSQL's default durability (fsync on): a benchmark that skips fsync
#                measures a database nobody runs (BENCH_ARGS="--events 50000" to adjust)
#   make bench-appstore  release build, then `ledger-bench appstore` (no database): full
#                verifications of the real Sandbox notifications in ../shared, one thread
#   make bench-appstore-sync  release build, then `ledger-bench appstore-sync` on a throwaway
#                cluster as `make bench`: notifications recovered by the history sync against
#                the live endpoint, and a dropped notification's time to the plan corrected
#   make clean   deletes the build folder (.build); the dev cluster in .ledger/ is kept
#
# `make run` builds in release mode: it runs the service the way it is deployed and the
# bench numbers come from the same kind of binary; the debug build is the test command's.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

# CI and cron may run with a minimal PATH; the project's machines keep Swift in /opt/swift.
SWIFT ?= $(or $(shell command -v swift 2>/dev/null),/opt/swift/usr/bin/swift)
LEDGER_RELEASE := .build/release/ledger
BENCH_RELEASE := .build/release/ledger-bench
TEST_ARGS ?=
BENCH_ARGS ?=

.PHONY: deps build release release-bench run test bench bench-appstore bench-appstore-sync clean

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product ledger

# The benchmarks are an executable of their own (they link a test-only HTTP client);
# `make bench` also runs `ledger pg` from the release build, hence `release` first.
release-bench: release
	$(SWIFT) build -c release --product ledger-bench

run: release
	$(LEDGER_RELEASE) dev

test:
	bash scripts/test.sh $(TEST_ARGS)

# One shell for the whole recipe, so the trap stops the cluster and deletes its folder
# whether the benchmark succeeds, fails or is interrupted. /tmp because, as root, the
# server's own account must be able to enter the folders above the cluster; a port below
# Linux's ephemeral range that nothing answers on. $(call bench-on-cluster,BENCHMARK) runs
# `ledger-bench BENCHMARK $(BENCH_ARGS)` there.
define bench-on-cluster
	@dir=$$(mktemp -d /tmp/ledger-bench-pg.XXXXXX); \
	trap '$(LEDGER_RELEASE) pg stop --dir "$$dir" || true; rm -rf "$$dir"' EXIT; \
	trap 'exit 130' INT; trap 'exit 143' TERM; \
	port=""; \
	for attempt in 1 2 3 4 5; do \
	    candidate=$$((15000 + RANDOM % 15000)); \
	    if ! (exec 3<>"/dev/tcp/127.0.0.1/$$candidate") 2>/dev/null; then port=$$candidate; break; fi; \
	done; \
	[ -n "$$port" ] || { echo "bench: no free port found" >&2; exit 1; }; \
	url=$$($(LEDGER_RELEASE) pg start --dir "$$dir" --port "$$port" --set max_connections=300); \
	echo "bench: PostgreSQL at 127.0.0.1:$$port (default durability: fsync on)" >&2; \
	DATABASE_URL="$$url" $(BENCH_RELEASE) $(1) $(BENCH_ARGS)
endef

bench: release-bench
	$(call bench-on-cluster,append)

# The notification history sync against the live notification endpoint, then the time
# from a dropped notification to the plan corrected (docs/benchmarks.md).
bench-appstore-sync: release-bench
	$(call bench-on-cluster,appstore-sync)

bench-appstore: release-bench
	$(BENCH_RELEASE) appstore $(BENCH_ARGS)

clean:
	rm -rf .build
