import Dispatch
import EventStore
import Foundation
import LedgerJSON
import Postgres
import Synchronization
import Threads

/// `ledger bench append`: the append path against raw INSERTs of the same rows.
enum AppendBenchmark {
    struct Options {
        var events = 200_000
        var writers = 32
        var window = 64
        var streams = 1_000
        /// Events to fill the log with before measuring again (`--preload`); 0: none.
        var preload = 0
    }

    static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["events", "writers", "window", "streams", "preload"])
        var options = Options()
        options.events = try args.int("events", default: options.events)
        options.writers = try args.int("writers", default: options.writers)
        options.window = try args.int("window", default: options.window)
        options.streams = try args.int("streams", default: options.streams)
        options.preload = try args.int("preload", default: options.preload)
        guard options.events > 0, options.writers > 0, options.window > 0, options.streams >= options.writers, options.preload >= 0 else {
            throw UsageError("--events, --writers and --window must be positive, --streams at least --writers, --preload not negative")
        }
        let url = try environment.databaseURL()
        let connection = try PostgresConnection(conninfo: url)
        guard try Migrator(migrations: try environment.migrations()).status(on: connection).isCurrent else {
            throw UsageError("the database has pending migrations: run `ledger migrate` first")
        }
        let run = String(UUID().uuidString.prefix(8)).lowercased()
        let payloads = (0..<options.events).map { payload(sequence: $0) }
        let streamOf = (0..<options.events).map { $0 % options.streams }
        let sampleBytes = payloads[0].canonicalText.utf8.count
        print("events: \(options.events), payload: ~\(sampleBytes) bytes, streams: \(options.streams), writers: \(options.writers), window: \(options.window)")

        var best = 0.0
        for connections in [1, 2, 4] {
            let rate = try RawInsertBaseline.measure(url: url, payloads: payloads, streams: streamOf, run: run, connections: connections)
            print("raw insert, \(connections) connection\(connections == 1 ? "" : "s"): \(Int(rate)) events/s")
            best = max(best, rate)
        }

        let single = options.preload > 0 ? try singleAppendLatency(url: url, run: run) : nil
        let rate = try measureAndReport(url: url, payloads: payloads, streams: streamOf, run: run, options: options)
        print(String(format: "append: %.0f events/s; raw insert: %.0f events/s; ratio: %.2f", rate, best, rate / best))
        guard options.preload > 0, let single else { return 0 }

        let (head, preloadRate) = try preload(url: url, count: options.preload, run: run, streams: options.streams)
        print(String(format: "preload: %d events in the log (%.0f events/s through the append path)", head, preloadRate))
        let again = try measureAndReport(url: url, payloads: payloads, streams: streamOf, run: run + "-again", options: options)
        let singleAgain = try singleAppendLatency(url: url, run: run + "-again")
        print(String(format: "flat: single append p99: empty %.2f ms; preloaded %.2f ms; ratio: %.2f",
                     single * 1000, singleAgain * 1000, singleAgain / single))
        print(String(format: "flat: empty %.0f events/s; preloaded %.0f events/s at %d events; ratio: %.2f", rate, again, head, again / rate))
        return 0
    }

    /// Runs the measurement on a store of its own and prints where the appender's time went.
    private static func measureAndReport(url: String, payloads: [JSONValue], streams: [Int], run: String,
                                         options: Options) throws -> Double {
        let store = EventStore(conninfo: url)
        defer { store.close() }
        let (rate, latencies) = try measureAppend(store: store, payloads: payloads, streams: streams, run: run, options: options)
        let stats = store.appendStatistics
        let sorted = latencies.sorted()
        func pct(_ p: Double) -> String { String(format: "%.1f ms", sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000) }
        let p = stats.phases
        let total = max(p.lockAndRead + p.plan + p.write + p.commit, 1e-9)
        print(String(format: "append: appender time: lock+read %.0f%%, plan+hash %.0f%%, write (COPY) %.0f%%, commit %.0f%%",
                     p.lockAndRead / total * 100, p.plan / total * 100, p.write / total * 100, p.commit / total * 100))
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
                              options: Options) throws -> (Double, [Double]) {
        // Each writer owns the streams congruent to it, so it knows their versions exactly
        // and can keep several appends in flight, each with an exact expected version.
        var assignment = [[Int]](repeating: [], count: options.writers)
        for (index, stream) in streams.enumerated() { assignment[stream % options.writers].append(index) }
        let work = assignment
        let failures = Atomic<Int>(0)
        let latencies = Mutex<[Double]>([])
        let firstError = Mutex<String?>(nil)
        let metadata = EventMetadata(actor: Actor(.system, "bench"))
        let start = DispatchTime.now().uptimeNanoseconds
        ThreadGroup.run(options.writers, name: "bench-writer") { w in
            var versions: [Int: Int64] = [:]
            let window = DispatchSemaphore(value: options.window)
            let group = DispatchGroup()
            for index in work[w] {
                let s = streams[index]
                let version = versions[s, default: 0]
                versions[s] = version + 1
                let request = AppendRequest(
                    EventToAppend(stream: "bench-\(run)-\(s)", type: "bench.usage_recorded", data: payloads[index], metadata: metadata),
                    expected: .exactly(version))
                window.wait()
                group.enter()
                let submitted = DispatchTime.now().uptimeNanoseconds
                store.submit(request) { result in
                    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - submitted) / 1e9
                    latencies.withLock { $0.append(elapsed) }
                    if case .failure(let error) = result {
                        failures.add(1, ordering: .relaxed)
                        firstError.withLock { if $0 == nil { $0 = "\(error)" } }
                    }
                    window.signal()
                    group.leave()
                }
            }
            group.wait()
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if failures.load(ordering: .relaxed) > 0 {
            throw BenchmarkError(message: "\(failures.load(ordering: .relaxed)) appends failed; first: \(firstError.withLock { $0 } ?? "?")")
        }
        return (Double(payloads.count) / seconds, latencies.withLock { $0 })
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
