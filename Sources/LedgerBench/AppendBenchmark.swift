import Dispatch
import EventStore
import Foundation
import LedgerCLI
import LedgerDomain
import LedgerJSON
import Postgres
import Synchronization
import Threads

/// `ledger-bench append`: the append path against raw INSERTs of the same rows.
enum AppendBenchmark {
    struct Options {
        var events = 200_000
        var writers = 32
        /// Appends each writer keeps in flight: 32 × 128 = 4,096, two group commits' worth,
        /// so that a full one is queued behind the one being written and the measurement is
        /// the log's rate, not the writers' turnaround. At 64 (2,048 in flight, about one
        /// group commit) nothing could queue while a batch was written: each next batch
        /// waited for the last one's callers to be answered and to send again
        /// (docs/benchmarks.md, "Answers off the appender's thread").
        var window = 128
        var streams = 1_000
        /// Events to fill the log with before measuring again (`--preload`); 0: none.
        var preload = 0
        /// Rows per transaction of the serialised writer's ceiling (`--ceiling-rows`): the
        /// most a group commit holds, EventStore's default.
        var ceilingRows = 2_000
        /// Alternating rounds of the append path and the log's own ceiling, for the ratio.
        var rounds = 5
    }

    static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["events", "writers", "window", "streams", "preload", "ceiling-rows", "rounds"])
        var options = Options()
        options.events = try args.int("events", default: options.events)
        options.writers = try args.int("writers", default: options.writers)
        options.window = try args.int("window", default: options.window)
        options.streams = try args.int("streams", default: options.streams)
        options.preload = try args.int("preload", default: options.preload)
        options.ceilingRows = try args.int("ceiling-rows", default: options.ceilingRows)
        options.rounds = try args.int("rounds", default: options.rounds)
        guard options.rounds >= 1 else { throw UsageError("--rounds must be at least 1") }
        guard options.events > 0, options.writers > 0, options.window > 0, options.ceilingRows > 0, options.streams >= options.writers,
              options.preload >= 0 else {
            throw UsageError("--events, --writers, --window and --ceiling-rows must be positive, --streams at least --writers, --preload not negative")
        }
        let url = try BenchDatabase.prepare("ledger_bench_append", reuse: false, environment: environment)
        let run = String(UUID().uuidString.prefix(8)).lowercased()
        let payloads = (0..<options.events).map { payload(sequence: $0) }
        let streamOf = (0..<options.events).map { $0 % options.streams }
        let sampleBytes = payloads[0].canonicalText.utf8.count
        print("events: \(options.events), payload: ~\(sampleBytes) bytes, streams: \(options.streams), writers: \(options.writers), window: \(options.window)")

        let rawRows = RawInsertBaseline.rows(payloads: payloads, streams: streamOf, run: run)
        func bestRawInsert() throws -> Double {
            try RawInsertBaseline.best(url: url, rows: rawRows, beforeEach: { settle(url: url) })
        }
        let best = try bestRawInsert()
        // What one backend at a time can write, the most the log's serialised appenders (docs/event-log.md)
        // can reach, beside the baseline's parallel best.
        settle(url: url)
        let ceiling = try RawInsertBaseline.measureOneBackend(url: url, rows: rawRows, perTransaction: options.ceilingRows)
        print(String(format: "one backend, binary COPY, %d rows per transaction (a serialised writer's ceiling): %.0f events/s; of the raw insert's best: %.2f",
                     options.ceilingRows, ceiling, ceiling / best))
        // The same rows written into the log itself, its trigger and side tables included,
        // by one connection with nothing else to do: the most any append path can reach.
        settle(url: url)
        let logCeiling = try measureLogCeiling(url: url, rows: rawRows, perTransaction: options.ceilingRows)
        print(String(format: "the log itself, one backend, binary COPY of rows planned before the clock, %d per transaction (the append path's ceiling): %.0f events/s; of the raw insert's best: %.2f; of the serialised ceiling: %.2f",
                     options.ceilingRows, logCeiling, logCeiling / best, logCeiling / ceiling))

        // The service's shape first: its handler threads check and render each request
        // before they submit it, inside the clock here too.
        settle(url: url)
        let byWriters = try measureAndReport(url: url, payloads: payloads, streams: streamOf, run: run + "-w", options: options,
                                             preparation: .byWriters)
        print(String(format: "append, requests prepared by the writers: %.0f events/s; ratio: %.2f", byWriters, byWriters / best))
        var single: Double?
        if options.preload > 0 {
            settle(url: url)
            single = try singleAppendLatency(url: url, run: run)
        }
        settle(url: url)
        let rate = try measureAndReport(url: url, payloads: payloads, streams: streamOf, run: run, options: options, preparation: .ahead)
        print(String(format: "append against one backend's ceiling: %.2f; against the log's own: %.2f", rate / ceiling, rate / logCeiling))
        print(String(format: "append: %.0f events/s; raw insert: %.0f events/s; ratio: %.2f", rate, best, rate / best))
        try alternatingRounds(url: url, payloads: payloads, streams: streamOf, rows: rawRows, run: run, options: options)
        guard options.preload > 0, let single else { return 0 }

        let (head, preloadRate) = try preload(url: url, count: options.preload, run: run, streams: options.streams)
        print(String(format: "preload: %d events in the log (%.0f events/s through the append path)", head, preloadRate))
        settle(url: url)
        let singleAgain = try singleAppendLatency(url: url, run: run + "-again")
        settle(url: url)
        let again = try measureAndReport(url: url, payloads: payloads, streams: streamOf, run: run + "-again", options: options,
                                         preparation: .ahead)
        print(String(format: "flat: single append p99: empty %.2f ms; preloaded %.2f ms; ratio: %.2f",
                     single * 1000, singleAgain * 1000, singleAgain / single))
        // The empty and the preloaded log are measured minutes apart, and this machine's
        // speed moves by a quarter within minutes: the baseline measured again beside the
        // second measurement says how much of a difference is the machine's.
        let bestAgain = try bestRawInsert()
        print(String(format: "flat: against the raw INSERTs measured beside each: empty %.2f; preloaded %.2f; ratio: %.2f",
                     rate / best, again / bestAgain, (again / bestAgain) / (rate / best)))
        print(String(format: "flat: empty %.0f events/s; preloaded %.0f events/s at %d events; ratio: %.2f", rate, again, head, again / rate))
        return 0
    }

    /// The append path (requests prepared ahead) against the log's own ceiling, in rounds
    /// whose order alternates (A B, B A, …), each on streams of its own: the ratio printed
    /// is the median of the rounds', with every round's and the spread, so that a moment of
    /// the machine's noise moves one round, not the answer.
    private static func alternatingRounds(url: String, payloads: [JSONValue], streams: [Int], rows: [RawInsertBaseline.Row],
                                          run: String, options: Options) throws {
        var ratios: [Double] = []
        for round in 0..<options.rounds {
            let roundRows = rows.map { row -> RawInsertBaseline.Row in
                var row = row
                row.stream += "-r\(round)"
                return row
            }
            func append() throws -> Double {
                settle(url: url)
                let store = EventStore(conninfo: url)
                defer { store.close() }
                return try measureAppend(store: store, payloads: payloads, streams: streams, run: run + "-r\(round)",
                                         options: options, preparation: .ahead).rate
            }
            func ceiling() throws -> Double {
                settle(url: url)
                return try measureLogCeiling(url: url, rows: roundRows, perTransaction: options.ceilingRows)
            }
            let (a, c): (Double, Double)
            if round % 2 == 0 { a = try append(); c = try ceiling() } else { c = try ceiling(); a = try append() }
            ratios.append(a / c)
            print("round \(round + 1) (" + (round % 2 == 0 ? "append first" : "ceiling first") + "): "
                  + String(format: "append %.0f events/s, the log's own ceiling %.0f events/s, ratio %.2f", a, c, a / c))
        }
        print(String(format: "append against the log's own ceiling: %.2f, the median of %d alternating rounds (spread %.2f to %.2f)",
                     Percentile.median(ratios), ratios.count, ratios.min() ?? 0, ratios.max() ?? 0))
    }

    /// Where a measured append is checked and rendered (`PreparedAppend`).
    enum Preparation {
        /// By the writer, inside the clock, as the service's handler threads do.
        case byWriters
        /// Before the clock, as the raw baseline renders its rows before its own: the
        /// measurement is then the log's part alone (order, chain, write, checks, commit).
        case ahead
    }

    /// Runs the measurement on a store of its own and prints where the appender's time went.
    private static func measureAndReport(url: String, payloads: [JSONValue], streams: [Int], run: String,
                                         options: Options, preparation: Preparation) throws -> Double {
        let store = EventStore(conninfo: url)
        defer { store.close() }
        let (rate, latencies, cpuSeconds) = try measureAppend(store: store, payloads: payloads, streams: streams, run: run,
                                                              options: options, preparation: preparation)
        let stats = store.appendStatistics
        let sorted = latencies.sorted()
        func pct(_ p: Double) -> String { String(format: "%.1f ms", Percentile.nearestRank(sorted, p) * 1000) }
        let p = stats.phases
        let total = max(p.lockAndRead + p.plan + p.write + p.commit, 1e-9)
        print(String(format: "append: appender time: lock+read %.0f%%, plan+hash %.0f%%, write (COPY) %.0f%%, commit %.0f%%",
                     p.lockAndRead / total * 100, p.plan / total * 100, p.write / total * 100, p.commit / total * 100))
        print(String(format: "append: this process's CPU %.1f µs per event", cpuSeconds / Double(max(payloads.count, 1)) * 1e6)
              + " (user and system, every thread: writers" + (preparation == .ahead ? "" : " preparing appends") + " and the appender)")
        print("append: \(stats.transactions) transactions, \(String(format: "%.0f", Double(stats.eventsWritten) / Double(max(stats.transactions, 1)))) events per transaction, latency p50 \(pct(0.5)), p99 \(pct(0.99))")
        return rate
    }

    /// A ~300-byte payload shaped like a usage event.
    static func payload(sequence: Int) -> JSONValue {
        let filler = String(repeating: "metered api usage for project benchmarking ", count: 4).prefix(150)
        return [
            "sequence": .integer(Int64(sequence)),
            "meter": "api_requests",
            "quantity": .integer(Int64(sequence % 97 + 1)),
            "amount_millicredits": .string(String(sequence * 37 % 100_000)),
            "currency": "credits",
            "source": "ledger bench append",
            "description": .string(String(filler)),
        ]
    }

    static func measureAppend(store: EventStore, payloads: [JSONValue], streams: [Int], run: String,
                              options: Options, preparation: Preparation) throws -> (rate: Double, latencies: [Double], cpuSeconds: Double) {
        // Each writer owns the streams congruent to it, so it knows their versions exactly
        // and can keep several appends in flight, each with an exact expected version.
        let metadata = EventMetadata(actor: Actor(.system, "bench"))
        var work = [[AppendRequest]](repeating: [], count: options.writers)
        var versions: [Int: Int64] = [:]
        for (index, s) in streams.enumerated() {
            let version = versions[s, default: 0]
            versions[s] = version + 1
            work[s % options.writers].append(AppendRequest(
                EventToAppend(stream: "bench-\(run)-\(s)", type: "bench.usage_recorded", data: payloads[index], metadata: metadata),
                expected: .exactly(version)))
        }
        let requests = work
        let prepared: [[PreparedAppend]] = preparation == .ahead ? try requests.map { try $0.map { try PreparedAppend($0) } } : []
        let failures = Atomic<Int>(0)
        let latencies = Mutex<[Double]>([])
        let firstError = Mutex<String?>(nil)
        let start = DispatchTime.now().uptimeNanoseconds
        let cpuBefore = ProcessCPU.seconds()
        ThreadGroup.run(options.writers, name: "bench-writer") { w in
            let window = DispatchSemaphore(value: options.window)
            let group = DispatchGroup()
            for i in requests[w].indices {
                window.wait()
                group.enter()
                let submitted = DispatchTime.now().uptimeNanoseconds
                let completion: @Sendable (Result<AppendResult, AppendError>) -> Void = { result in
                    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - submitted) / 1e9
                    latencies.withLock { $0.append(elapsed) }
                    if case .failure(let error) = result {
                        failures.add(1, ordering: .relaxed)
                        firstError.withLock { if $0 == nil { $0 = "\(error)" } }
                    }
                    window.signal()
                    group.leave()
                }
                if prepared.isEmpty {
                    store.submit(requests[w][i], completion: completion)
                } else {
                    store.submit(prepared[w][i], completion: completion)
                }
            }
            group.wait()
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let cpuSeconds = ProcessCPU.seconds() - cpuBefore
        if failures.load(ordering: .relaxed) > 0 {
            throw BenchmarkError(message: "\(failures.load(ordering: .relaxed)) appends failed; first: \(firstError.withLock { $0 } ?? "?")")
        }
        return (Double(payloads.count) / seconds, latencies.withLock { $0 }, cpuSeconds)
    }

    /// Brings the cluster to rest before a measurement: a checkpoint, so that none is
    /// forced by the WAL of what came before (the baseline's 600,000 rows, a preload of
    /// millions), and the log's tables vacuumed and analysed, so that autovacuum does not
    /// start on a preload during the measurement. Each measurement then starts from the
    /// same quiet cluster, empty log or full. Without the rights for it (CHECKPOINT needs
    /// a superuser or `pg_checkpoint`), the bench says so and measures all the same.
    /// `tables` are those vacuumed (every table of the database when empty).
    static func settle(url: String, tables: String = "events, event_ids, event_keys, event_streams") {
        do {
            let connection = try PostgresConnection(conninfo: url)
            try connection.query("VACUUM (ANALYZE) \(tables)")
            try connection.query("CHECKPOINT")
        } catch {
            print("note: the cluster was not brought to rest before this measurement: \(error)")
        }
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
