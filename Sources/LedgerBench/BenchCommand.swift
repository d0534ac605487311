import Foundation
import LedgerCLI

/// `ledger-bench …`: benchmarks that report a speed as a ratio against a baseline measured
/// in the same run, never as an absolute number alone (the machines are shared and noisy).
public enum BenchCommand: LedgerCommand {
    public static let name = "bench"
    public static let summary = "Benchmarks: `ledger-bench append|read|replay|ingest|products|console|proofs|appstore|appstore-sync|stripe` (append path, projector and billing reads, replay, usage ingestion, the IAP catalog, App Store verification, the notification history sync, Stripe webhooks)."
    public static let usage = """
        usage: ledger-bench append [--events N] [--writers N] [--window N] [--preload N] [--ceiling-rows N] [--rounds K]
               ledger-bench read [--events N] [--projects P] [--requests R] [--concurrency C] [--rounds K] [--reproject] [--replicas N]
               ledger-bench replay [--events N] [--projects P] [--batch B] [--rounds K] [--only NAME,…]
               ledger-bench ingest [--batches B] [--batch-size S] [--concurrency C] [--rate R] [--projector [--drift-every S] [--projector-batch N] [--projector-throttle F] | --catch-up]
               ledger-bench appstore [--seconds S] [--dir DIR]
               ledger-bench products [--users U] [--requests R] [--concurrency C]
               ledger-bench console [--events N] [--projects P] [--requests R]
               ledger-bench appstore-sync [--notifications N] [--rounds R] [--latency-samples K] [--every S] [--look S] [--page-size P]
               ledger-bench stripe [--events N] [--rounds R] [--clients C] [--latency-samples K] [--every S]

        append   Appends N events (default 200000, ~300-byte JSON payloads, over 1000
                 streams) into a log of its own through the real append path, from
                 --writers concurrent writers (default 32), each keeping up to --window appends
                 in flight (default 128) with an exact expected version per append. In the same
                 run it measures the baseline: the same rows inserted by multi-row INSERTs of
                 500 rows through libpq into a scratch table with the same columns as `events`
                 and its uniqueness rules as unique indexes of that one table (no partitions,
                 no side tables, no lock, no hash chain, no version check), from 1, 2 and 4
                 connections, keeping the best; then a serialised writer's ceiling: the
                 same rows from one connection by binary COPY of --ceiling-rows rows per
                 transaction (default 2000, the most a group commit holds) into that table,
                 the most a writer that holds the append lock alone could reach (docs/event-log.md).
                 The append path is measured twice: with
                 each request checked and rendered by its writer inside the clock, as the
                 service's request threads do, then with the requests prepared before the
                 clock, as the baseline's rows are; the second gives the ratio. Every
                 measurement starts from a cluster at rest (log tables vacuumed, then a
                 CHECKPOINT). Ends with the lines
                 `append against one backend's ceiling: A/C` and
                 `append: A events/s; raw insert: R events/s; ratio: A/R`, then K rounds
                 (default 5) of the append path and the log's own ceiling in alternating
                 order, each on streams of its own: `append against the log's own ceiling:
                 M, the median of K alternating rounds (spread …)`.
                 --preload N then fills the log with N more events through the real append
                 path (appends of 5000 events, group commits of up to 20000: the chain, the
                 versions and the insert checks hold for each), measures again on the
                 larger log, and measures the p99 latency of single appends (one at a time,
                 1000 of them) on the empty and on the large log, and the baseline again
                 beside the second rate; it ends with the lines
                 `flat: single append p99: empty X ms; preloaded Y ms; ratio: Y/X`,
                 `flat: against the raw INSERTs measured beside each: empty a; preloaded b;
                 ratio: b/a` and
                 `flat: empty A events/s; preloaded B events/s at N events; ratio: B/A`.
                 The events it appends stay in database `ledger_bench_append`, made afresh
                 for each run (see below).

        read     Builds a log of N events (default 1000000) over P self-paying projects
                 (default 1000): per project its creation, plan and a read key, then credits
                 (one journal entry each) alternating with usage, so that each journal has
                 about N/P/2 entries; 1000-event appends, several in flight. A log this
                 command built before with the same N and P (its marker event is on stream
                 `bench-read`) is reused; an interrupted build resumes. Then runs the
                 projector in this process until the billing projection reaches the head,
                 printing its progress, and reports its events/s (--reproject drops the
                 projections first, to measure it over a reused log). Then serves the real
                 HTTP API in this process on a free port and, from C client threads (default
                 4) each with its own keep-alive connection, sends R requests (default 2000,
                 after an unmeasured tenth) to each of: /healthz (the ceiling), the first
                 journal page of 50 of random projects, their last page (cursors followed
                 once per project beforehand), and the balance; each journal page also with
                 one client, and each also as the read model's statement straight through
                 libpq (the baseline), in K alternating rounds (default 5) of R requests of
                 each. Prints requests/s, p50, p99 and max for each, the ratio of HTTP to
                 raw statement rates as the median of the rounds' ratios, and ends with the
                 line `journal page p99 with 1 client: first X ms, last Y ms; HTTP rate / raw
                 statement rate with C clients: first A, last B; tail page T`.
                 With --replicas N (1 to 4): copies N hot standbys of the database's cluster
                 (pg_basebackup as DATABASE_URL's user, which needs REPLICATION; deleted at the
                 end), then measures the first journal page and the catalog with a user_id
                 with 0, 1, … N of them in LEDGER_READ_DATABASE_URLS, and which served the
                 reads; ends with `read with 0..N replicas: journal A / B / … requests/s;
                 products with user_id …`. On one machine the standbys share its cores.

        ingest   Creates (once) the self-paying project `bench-ingest` and a service key,
                 runs the projector until it knows them, then POSTs B batches (default 200)
                 of S usage events (default 1000, at most 1000) with unique ids to
                 /v1/usage/events of the real HTTP API in this process, from C client threads
                 (default 4), and prints events/s and batch latency. The projector is stopped
                 while it measures, since ingestion is the append path; --projector keeps it
                 running, reports how far it kept up, and after each batch's answer reads
                 the project's balance with min_position on connections of its own:
                 `visible after append: p50 X ms, p99 Y ms`; --catch-up starts the live
                 projector once the batches are in and times it through that backlog:
                 `projector catch-up: X events/s; append: A events/s; ratio: X/A`. --rate R
                 paces the batches at R events per second (batch i sent no earlier than
                 i·S/R seconds after the start), to measure at a given ingest rate.
                 --drift-every S runs the drift check beside the projector every S seconds,
                 as `ledger project` does (a sample of 20 accounts folded again from the
                 log), and reports what each check took. --projector-batch N caps the
                 events the projector folds per transaction (default 5000, as `ledger
                 project --batch`); --projector-throttle F holds it to 1/F of its speed
                 (a pause after each batch), so that the writers offer more than it folds:
                 `--projector-throttle 5 --concurrency 8 --batches 1000` is the run at
                 twice its capacity (docs/benchmarks.md: on 2 cores, eight writers
                 offer about twice what it folds at 1/5 of its speed).
                 A batch refused for the projections' lag (503) is sent
                 again after its Retry-After, and the run prints `admission: admitted A
                 events/s of O offered; deferred D; refused R; projector capacity C
                 events/s; admitted/capacity: X`. In the same run it measures two
                 baselines of the same rows: the log's own ceiling (binary COPY into `events`,
                 as many rows per transaction as the appender committed, the lock and the
                 trigger's checks included: the same work as the append path), then 500-row
                 INSERTs into a scratch copy of `events`, best of 1, 2 and 4 connections. Ends
                 with `ingest: A events/s over HTTP; raw insert: R events/s; ratio: A/R`.

        The server takes LEDGER_HTTP_THREADS and LEDGER_DB_POOL_SIZE from the environment.

        Databases. A benchmark writes only into a database it made itself, on the server
        DATABASE_URL names (its role must be allowed to create databases: `make bench` gives
        it a throwaway cluster's superuser): append, ingest, products, appstore-sync and
        stripe make `ledger_bench_<name>` afresh each run; read, replay, console and proofs make
        `ledger_bench_log<layout>_<events>_<projects>[_extras]` once and reuse it (its log
        takes minutes to build). Each is migrated, carries a comment saying ledger-bench made
        it, and stays after the run. A database of such a name without that comment is
        refused: a benchmark never writes into a log it did not create.

        replay \(ReplayBenchmark.usage.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).joined(separator: "\n         "))

        products \(ProductsBenchmark.usage.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).joined(separator: "\n         "))

        console \(ConsoleBenchmark.usage.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).joined(separator: "\n         "))

        proofs \(ProofsBenchmark.usage.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).joined(separator: "\n         "))

        appstore Needs no database. \(AppStoreBenchmark.usage.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).joined(separator: "\n         "))

        appstore-sync \(AppStoreSyncBenchmark.usage.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).joined(separator: "\n         "))

        stripe   \(StripeBenchmark.usage.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).joined(separator: "\n         "))
        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        guard let sub = arguments.first else { throw UsageError("which benchmark? (append, read or ingest)") }
        let rest = Array(arguments.dropFirst())
        switch sub {
        case "append": return try AppendBenchmark.run(arguments: rest, environment: environment)
        case "read": return try ReadBenchmark.run(arguments: rest, environment: environment)
        case "replay": return try ReplayBenchmark.run(arguments: rest, environment: environment)
        case "ingest": return try IngestBenchmark.run(arguments: rest, environment: environment)
        case "appstore": return try AppStoreBenchmark.run(arguments: rest, environment: environment)
        case "products": return try ProductsBenchmark.run(arguments: rest, environment: environment)
        case "console": return try ConsoleBenchmark.run(arguments: rest, environment: environment)
        case "proofs": return try ProofsBenchmark.run(arguments: rest, environment: environment)
        case "appstore-sync": return try AppStoreSyncBenchmark.run(arguments: rest, environment: environment)
        case "stripe": return try StripeBenchmark.run(arguments: rest, environment: environment)
        default: throw UsageError("unknown benchmark \(sub)")
        }
    }
}
