import BenchHTTP
import Crypto
import Dispatch
import EventStore
import Foundation
import LedgerCLI
import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres
import Synchronization

/// `ledger-bench ingest`: usage batches POSTed to the real HTTP endpoint against raw
/// INSERTs of the same rows, measured in the same run.
enum IngestBenchmark {
    struct Options {
        var batches = 200
        var batchSize = 1_000
        var concurrency = 4
        var projector = false
        /// Ingest with the projector stopped, then time the live projector through the backlog.
        var catchUp = false
        /// Events per second to pace the batches at (nil: as fast as the clients go).
        var rate: Double?
        /// The most events the projector folds in one transaction (`ledger project --batch`).
        var projectorBatch = 5_000
        /// Holds the projector to 1/throttle of its speed (a slower machine's), so that the
        /// writers can offer more than it folds: admission under overload.
        var projectorThrottle: Double?
        /// With the projector running: the drift check beside it every this many seconds,
        /// as `ledger project` runs it (nil: not run).
        var driftEvery: Double?
    }

    static let projectID = "bench-ingest"
    static let serviceID = "bench-ingest"
    /// Derived from a fixed text, so that a second run reuses the key the first one issued.
    static let serviceKey = "sk_svc_bench_" + Hex.encode(SHA256.hash(Array("ledger bench ingest service key".utf8)).prefix(16))
    /// The project's own keys, with which the visibility probe reads the balance: four, as
    /// the server admits 32 requests in flight per credential and the probe has 64 readers.
    static let readerKeys = (0..<4).map { "sk_live_bench_" + Hex.encode(SHA256.hash(Array("ledger bench ingest reader key \($0)".utf8)).prefix(16)) }

    static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["batches", "batch-size", "concurrency", "rate", "drift-every", "projector-batch", "projector-throttle"],
                                 boolean: ["projector", "catch-up"])
        var options = Options()
        options.batches = try args.int("batches", default: options.batches)
        options.batchSize = try args.int("batch-size", default: options.batchSize)
        options.concurrency = try args.int("concurrency", default: options.concurrency)
        options.projector = args.flag("projector")
        options.projectorBatch = try args.int("projector-batch", default: options.projectorBatch)
        guard options.projectorBatch >= 1 else { throw UsageError("--projector-batch is events per transaction, at least 1") }
        if let text = args.value("projector-throttle") {
            guard let throttle = Double(text), throttle >= 1, throttle <= 100 else {
                throw UsageError("--projector-throttle is how many times slower the projector runs, 1 to 100, got \(text)")
            }
            options.projectorThrottle = throttle
        }
        options.catchUp = args.flag("catch-up")
        if args.value("rate") != nil {
            let rate = try args.int("rate", default: 0)
            guard rate > 0 else { throw UsageError("--rate is events per second, a positive number") }
            options.rate = Double(rate)
        }
        if args.value("drift-every") != nil {
            let every = try args.int("drift-every", default: 0)
            guard every >= 1 else { throw UsageError("--drift-every is seconds between two drift checks, at least 1") }
            options.driftEvery = Double(every)
        }
        guard !(options.projector && options.catchUp) else { throw UsageError("--projector and --catch-up exclude each other") }
        guard options.driftEvery == nil || options.projector else { throw UsageError("--drift-every runs beside the projector: give --projector") }
        guard options.batches > 0, options.concurrency > 0 else { throw UsageError("--batches and --concurrency must be positive") }
        guard (1...1_000).contains(options.batchSize) else { throw UsageError("--batch-size must be 1 to 1000 (the endpoint's limit)") }
        let url = try BenchDatabase.prepare("ledger_bench_ingest", reuse: false, environment: environment)

        let service = try BenchService(url: try BenchDatabase.apiLogin(on: url), environment: environment)
        defer { service.shutdown() }
        // The project and its key are operators' acts, which the API's login may not append.
        let setupStore = EventStore(conninfo: url)
        let setupPosition = try setUp(setupStore)
        setupStore.close()
        // Ingestion checks projects against the billing projection, so the projector must
        // have folded the project and the key before the first batch.
        let projector = BenchProjector(url: url, batchSize: options.projectorBatch, throttle: options.projectorThrottle)
        defer { projector.shutdown() }
        _ = try projector.wait(for: setupPosition, connections: service.connections)
        if !options.projector { projector.shutdown() }
        // The drift check beside the projector, as `ledger project` runs it, on the
        // projector's login; each check's time and size reported after the run.
        let drift = try options.driftEvery.map { every in
            try BenchDriftCheck(url: try BenchDatabase.projectorLogin(on: url), every: every)
        }
        defer { drift?.stop() }

        let run = Hex.encode(SecureRandom.bytes(4))
        // A minute ago: inside the open month, and well clear of the endpoint's future check.
        let occurredAt = Timestamp(microseconds: Int64(Date().timeIntervalSince1970 * 1_000_000) - 60_000_000)!
        let usages = (0..<options.batches).map { b in
            (0..<options.batchSize).map { i in
                UsageRecorded(usageID: "bench-\(run)-\(b)-\(i)", projectID: projectID, meter: i % 10 == 9 ? .storageBytes : .apiRequests,
                              quantity: Int64(1 + (b * options.batchSize + i) % 500))
            }
        }
        let bodies = usages.map { batch -> [UInt8] in
            let events: [JSONValue] = batch.map {
                ["id": .string($0.usageID), "project_id": .string($0.projectID), "meter": .string($0.meter.rawValue),
                 "quantity": .integer($0.quantity), "occurred_at": .string(occurredAt.iso8601)]
            }
            return JSONValue.object(["events": .array(events)]).compactBytes()
        }
        let total = options.batches * options.batchSize
        BenchOutput.line("ingest: \(options.batches) batches of \(options.batchSize) usage events (\(bodies[0].count) bytes a batch) from \(options.concurrency) client threads\(options.rate.map { String(format: ", paced at %.0f events/s", $0) } ?? ""); projector \(options.projector ? "running" : "stopped")")

        let reachedBefore = try BenchProjector.billingPosition(service.connections)
        let busyBefore = projector.busy()
        let statsBefore = service.store.appendStatistics
        let lag = options.projector ? try ProjectorLagSampler(url: url) : nil
        // Each batch's answer, then a read of its position, as a client reading its own write does.
        let visibility = options.projector
            ? VisibilityProbe(port: service.port, path: "/v1/projects/\(projectID)/balance",
                              credentials: readerKeys.map { [("Authorization", "Bearer " + $0)] })
            : nil
        let expected = options.batchSize
        let interval = options.rate.map { Double(options.batchSize) / $0 }
        // A batch refused for the projections' lag (503 projection_behind) is sent again after
        // its Retry-After, under the same ids, as a metering service does: each batch's time
        // is until it was accepted, and every send is offered load.
        let sends = Atomic<Int>(0)
        let admissionBefore = service.context.admission.counts
        let summary = try ClosedLoop.run(concurrency: options.concurrency, count: options.batches, name: "bench-client", interval: interval) { _ in
            let client = try HTTPClient(host: "127.0.0.1", port: service.port, timeout: 60)
            return { b in
                while true {
                    sends.add(1, ordering: .relaxed)
                    let response = try client.send(method: "POST", path: "/v1/usage/events",
                                                   headers: [("Authorization", "Bearer " + serviceKey), ("Content-Type", "application/json")],
                                                   body: bodies[b])
                    if response.status == 503, let wait = response.headers["retry-after"].flatMap(Double.init) {
                        usleep(UInt32(min(wait, 30) * 1_000_000))
                        continue
                    }
                    guard response.status == 200, let answer = try? JSONValue.parse(response.body),
                          let accepted = answer["accepted"]?.int64Value, accepted == Int64(expected),
                          let position = answer["position"]?.int64Value else {
                        throw BenchmarkFailure(.unexpectedResponse, "a batch was not accepted whole (\(response.status)): "
                                               + String(decoding: response.body.prefix(300), as: UTF8.self))
                    }
                    visibility?.answered(position: position)
                    return
                }
            }
        }
        let httpRate = Double(total) / summary.seconds
        BenchOutput.line(summary.line("ingest batches", unit: "batches") + String(format: "; %.0f events/s", httpRate))
        let admission = Self.difference(service.context.admission.counts, admissionBefore)
        let offeredRate = Double(sends.load(ordering: .relaxed) * options.batchSize) / summary.seconds
        let appended = service.store.appendStatistics
        printAppender(before: statsBefore, after: appended, seconds: summary.seconds)
        if options.projector, let lag {
            let head = try service.store.log.headPosition()
            // Until it has folded everything ingested: its rate is over that whole time.
            let caughtUp = try projector.wait(for: head, connections: service.connections)
            let lagSummary = lag.stop()
            if let visible = try visibility?.stop() {
                BenchOutput.line(String(format: "visible after append: p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d batches read with min_position as answered, %d skipped with every reader busy; %d not visible within the service's 5 s bound)",
                                        visible.p50Milliseconds, visible.p99Milliseconds, visible.maxMilliseconds, visible.count, visible.skipped, visible.notVisible))
            }
            // Its rate is what it folds per second of work: keeping up, it waits for the log
            // most of the time, and events over wall time would only repeat the ingest rate.
            let busy = projector.busy()
            let projectorRate = Double(busy.events - busyBefore.events) / max(busy.seconds - busyBefore.seconds, 1e-9)
            BenchOutput.line(String(format: "projector: %lld events, done %.1f s after the last batch; busy %.1f s of %.1f s in %d batches: %.0f events/s of work; lag p50 %.0f ms, p99 %.0f ms, max %.0f ms (%lld events)",
                                    head - reachedBefore, caughtUp.seconds, busy.seconds - busyBefore.seconds,
                                    summary.seconds + caughtUp.seconds, busy.batches - busyBefore.batches, projectorRate,
                                    lagSummary.p50Seconds * 1000, lagSummary.p99Seconds * 1000, lagSummary.maxSeconds * 1000,
                                    lagSummary.maxPositions))
            drift?.stop()
            if let drift { BenchOutput.line(drift.summary()) }
            // What admission let in against what the projections can fold: it must not
            // throttle below the projector's own rate (docs/architecture.md, "Admission").
            // Held to 1/throttle of its speed, the projector's capacity is its rate of work
            // over its time working and pausing.
            let capacity = projectorRate / (options.projectorThrottle ?? 1)
            print(String(format: "admission: admitted %.0f events/s of %.0f offered; deferred %lld; refused %lld; projector capacity %.0f events/s%@; admitted/capacity: %.2f%@",
                         httpRate, offeredRate, admission.deferred.requests, admission.refused.requests, capacity,
                         options.projectorThrottle.map { String(format: " (held to 1/%.1f of its speed)", $0) } ?? "",
                         httpRate / capacity, service.context.admission.settings.bound.map { " (bound \($0))" } ?? " (admission off)"))
            print(String(format: "projector: %.0f events/s; ingest: %.0f events/s; ratio: %.2f; lag p99: %.0f ms",
                         projectorRate, httpRate, projectorRate / httpRate, lagSummary.p99Seconds * 1000))
            projector.shutdown()
        }

        if options.catchUp {
            try catchUp(url: url, service: service, from: reachedBefore, appendRate: httpRate)
        }

        let metadata = EventMetadata(actor: Actor(.service, serviceID), requestID: Hex.encode(SecureRandom.bytes(16)))
        let rows = try usages.joined().map { usage in
            RawInsertBaseline.Row(stream: UsageDecider.stream(projectID), type: UsageRecorded.type, data: try JSONValueEncoder().encode(usage),
                                  metadata: metadata, occurredAt: occurredAt, idempotencyKey: UsageDecider.idempotencyKey(usageID: usage.usageID))
        }
        // The baseline that does the same work: the same rows into the log itself, as many
        // per transaction as the appender committed in this run, by binary COPY (under keys
        // of their own, the run's being taken).
        let perTransaction = max(1, (appended.eventsWritten - statsBefore.eventsWritten) / max(appended.transactions - statsBefore.transactions, 1))
        let ceilingRows = rows.map { row -> RawInsertBaseline.Row in
            var row = row
            row.idempotencyKey = row.idempotencyKey.map { "ceiling-\(run):" + $0 }
            return row
        }
        let ceiling = try AppendBenchmark.measureLogCeiling(url: url, rows: ceilingRows, perTransaction: perTransaction)
        BenchOutput.line(String(format: "ingest: the log's own ceiling, the same rows by binary COPY, %d per transaction as the appender committed them: %.0f events/s; of the ceiling: %.2f",
                                perTransaction, ceiling, httpRate / ceiling))
        let best = try RawInsertBaseline.best(url: url, rows: rows)
        BenchOutput.line(String(format: "ingest: %.0f events/s over HTTP; raw insert: %.0f events/s; ratio: %.2f", httpRate, best, httpRate / best))
        return 0
    }

    /// The live projector (every projection, as `ledger project` runs them) started on the
    /// backlog the ingestion left, timed until every projection has applied the head: its
    /// headroom is how much faster than the append path it folds.
    private static func catchUp(url: String, service: BenchService, from: Int64, appendRate: Double) throws {
        let head = try service.store.log.headPosition()
        let start = DispatchTime.now().uptimeNanoseconds
        let projector = BenchProjector(url: url)
        defer { projector.shutdown() }
        _ = try projector.wait(for: head, connections: service.connections)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let busy = projector.busy()
        let rate = Double(head - from) / seconds
        BenchOutput.line(String(format: "projector catch-up: %lld events in %.1f s, every projection, busy %.1f s in %d batches",
                                head - from, seconds, busy.seconds, busy.batches))
        print(String(format: "projector catch-up: %.0f events/s; append: %.0f events/s; ratio: %.2f", rate, appendRate, rate / appendRate))
    }

    /// The admission's counts between two readings.
    private static func difference(_ a: AdmissionControl.Counts, _ b: AdmissionControl.Counts) -> AdmissionControl.Counts {
        func minus(_ x: AdmissionControl.Counts.Tally, _ y: AdmissionControl.Counts.Tally) -> AdmissionControl.Counts.Tally {
            var t = x
            t.requests -= y.requests
            t.events -= y.events
            return t
        }
        var d = a
        d.admitted = minus(a.admitted, b.admitted)
        d.deferred = minus(a.deferred, b.deferred)
        d.refused = minus(a.refused, b.refused)
        d.unbounded = minus(a.unbounded, b.unbounded)
        return d
    }

    /// `EventStore.appendStatistics`.
    typealias AppendStatistics = (transactions: Int, appends: Int, eventsWritten: Int, failedAppends: Int, phases: AppendPhases)

    /// Where the single appender thread spent the run: if it was busy nearly all along, the
    /// append path is the bottleneck; if not, the time went before it (HTTP, validation).
    private static func printAppender(before: AppendStatistics, after: AppendStatistics, seconds: Double) {
        let transactions = after.transactions - before.transactions
        let events = after.eventsWritten - before.eventsWritten
        let (a, b) = (after.phases, before.phases)
        let lockAndRead = a.lockAndRead - b.lockAndRead, plan = a.plan - b.plan, write = a.write - b.write, commit = a.commit - b.commit
        let busy = max(lockAndRead + plan + write + commit, 1e-9)
        BenchOutput.line(String(format: "appender: %d transactions, %.0f events each; busy %.1f s of %.1f s (%.0f%%): lock+read %.0f%%, plan+hash %.0f%%, write (COPY) %.0f%%, commit %.0f%%",
                     transactions, Double(events) / Double(max(transactions, 1)), busy, seconds, busy / seconds * 100,
                     lockAndRead / busy * 100, plan / busy * 100, write / busy * 100, commit / busy * 100))
    }

    /// The self-paying project and the service key, once: every append carries an
    /// idempotency key, so a second run appends nothing. Returns the position to wait for.
    private static func setUp(_ store: EventStore) throws -> Int64 {
        let metadata = EventMetadata(actor: Actor(.system, "bench"), reason: "ledger bench ingest sets up its project")
        var position: Int64 = 0
        func append<E: DomainEvent>(_ event: E, _ stream: String, key: String, at: Timestamp? = nil) throws {
            let result = try store.append(AppendRequest(EventToAppend(stream: stream, type: E.type, data: try JSONValueEncoder().encode(event),
                                                                      metadata: metadata, occurredAt: at),
                                                        idempotencyKey: "bench-ingest:" + key))
            position = max(position, result.position)
        }
        try append(ProjectCreated(projectID: projectID, name: projectID, funding: .selfPaying), "project-" + projectID,
                   key: "project", at: BenchReadLog.epoch)
        try append(PlanSet(pool: .project(projectID), plan: "bench", allowanceStorageBytes: 1 << 30), "project-" + projectID, key: "plan")
        try append(KeyIssued(keyID: serviceID, principal: KeyPrincipal(kind: .service, id: serviceID),
                             sha256: Hex.encode(SHA256.hash(Array(serviceKey.utf8))), prefix: String(serviceKey.prefix(12))),
                   AccountsDecider.keyStream(serviceID), key: "key")
        for (i, key) in readerKeys.enumerated() {
            try append(KeyIssued(keyID: "bench-ingest-reader-\(i)", principal: KeyPrincipal(kind: .project, id: projectID),
                                 sha256: Hex.encode(SHA256.hash(Array(key.utf8))), prefix: String(key.prefix(12))),
                       AccountsDecider.keyStream("bench-ingest-reader-\(i)"), key: "reader-key-\(i)")
        }
        return position
    }
}
