import Dispatch
import EventStore
import Foundation
import Observability
import Postgres
import Synchronization

/// The projector process's engine (`ledger project`): one active instance per database.
///
/// It takes a session advisory lock, so that a second projector waits and takes over the
/// moment the first one's connection ends (when it dies, or is killed). It wakes on the
/// log's NOTIFY, with polling as a fallback, reads events in position order and, for each
/// batch, applies them and moves the checkpoints in one transaction: a crash between the
/// two leaves neither, so each event is applied exactly once.
public final class Projector: Sendable {
    /// The channel the projector notifies when a projection's checkpoint moves, with the
    /// payload `<name>:<position>`.
    public static let notificationChannel = "ledger_projections"
    /// The channel the projector notifies, in each batch's transaction, with the rate it
    /// folds at (events per second of its batches' time, `FoldRate`; the payload is that
    /// number): what admission predicts a write's wait from (`ProjectionProgress.load(of:)`).
    public static let foldRateChannel = "ledger_fold_rate"

    public struct Configuration: Sendable {
        public var conninfo: String
        public var projections: [any Projection]
        public var batchSize: Int
        /// Seconds to wait for a NOTIFY before reading the log anyway.
        public var pollInterval: Double
        /// Fault injection for tests: exit the process, without committing, after applying
        /// the batch that contains this position.
        public var crashAfterApplying: Int64?
        /// Where `ledger archive` put its files (LEDGER_ARCHIVE_DIR): a projection rebuilt
        /// on a log whose oldest partitions are archived reads them first.
        public var archiveDirectory: String?
        /// For benchmarks: after each batch, a pause of (throttle − 1) times what the batch
        /// took, holding the projector to 1/throttle of its speed, as on a slower machine
        /// (`ledger-bench ingest --projector-throttle`); nil (always, in production): none.
        public var throttle: Double?

        public init(conninfo: String, projections: [any Projection], batchSize: Int = 5_000, pollInterval: Double = 1,
                    crashAfterApplying: Int64? = nil, archiveDirectory: String? = nil) {
            self.archiveDirectory = archiveDirectory
            self.conninfo = conninfo
            self.projections = projections
            self.batchSize = batchSize
            self.pollInterval = pollInterval
            self.crashAfterApplying = crashAfterApplying
        }
    }

    /// What the projector is doing, for logs and tests.
    public struct Status: Sendable, Equatable {
        public var active = false
        public var appliedThrough: Int64 = 0
        public var batches = 0
        public var failed: [String] = []
        /// Events read and applied, and the seconds spent in the batches that applied them.
        public var eventsApplied = 0
        public var busySeconds = 0.0
    }

    let configuration: Configuration
    let log: ProjectorLog
    public let status = Mutex(Status())
    private let readAhead: LogReadAhead
    /// Set-asides already reported as applied before they were set aside (said once per
    /// process, not once per batch).
    private let reportedLateSetAsides = Mutex<Set<String>>([])
    /// The rate of the last batches: each one's events over its time, from its start to
    /// the next one's (its pause too, when throttled); waiting for the log is not counted.
    private let foldRate = Mutex(FoldRate())

    public init(configuration: Configuration, log: @escaping ProjectorLog) {
        self.configuration = configuration
        self.log = log
        readAhead = LogReadAhead(conninfo: configuration.conninfo, batchSize: configuration.batchSize)
    }

    /// Runs until `shouldStop` returns true; survives database restarts.
    public func run(shouldStop: @Sendable () -> Bool) {
        var waitingReported = false
        while !shouldStop() {
            do {
                let connection = try PostgresConnection(conninfo: configuration.conninfo)
                guard try acquireLock(connection, shouldStop: shouldStop, waitingReported: &waitingReported) else { return }
                status.withLock { $0.active = true }
                log(.info, "projector active", ["projections": configuration.projections.map(\.name).joined(separator: ",")])
                try connection.listen(EventStore.notificationChannel)
                try prepareSchemas(on: connection)
                while !shouldStop() {
                    let started = ContinuousClock.now
                    let applied = try runBatch(on: connection)
                    if let throttle = configuration.throttle, throttle > 1, applied > 0 {
                        Thread.sleep(forTimeInterval: (ContinuousClock.now - started).seconds * (throttle - 1))
                    }
                    let took = (ContinuousClock.now - started).seconds
                    if applied > 0 && took > 0 { foldRate.withLock { $0.add(events: Int64(applied), seconds: took) } }
                    if applied < configuration.batchSize {
                        _ = try connection.waitForNotifications(timeout: applied == 0 ? configuration.pollInterval : 0)
                    }
                }
                status.withLock { $0.active = false }
                return
            } catch {
                status.withLock { $0.active = false }
                log(.warning, "projector error; reconnecting", ["error": "\(error)"])
                Thread.sleep(forTimeInterval: min(configuration.pollInterval, 1))
            }
        }
    }

    private func acquireLock(_ connection: PostgresConnection, shouldStop: @Sendable () -> Bool, waitingReported: inout Bool) throws -> Bool {
        while !shouldStop() {
            let got = try connection.query("SELECT pg_try_advisory_lock($1, $2)", [AdvisoryLock.namespace, AdvisoryLock.projector])[0].bool(0) ?? false
            if got { return true }
            if !waitingReported {
                log(.info, "another projector is active; waiting to take over", [:])
                waitingReported = true
            }
            Thread.sleep(forTimeInterval: min(configuration.pollInterval, 0.5))
        }
        return false
    }

    /// Creates missing schemas and rebuilds those whose stored version is not the code's,
    /// and those behind archived positions (a new projection on an archived log).
    private func prepareSchemas(on connection: PostgresConnection) throws {
        var outdated: [any Projection] = []
        let firstLive = try LogReader(connection).firstLivePosition()
        for projection in configuration.projections {
            if let checkpoint = try ProjectionSchema.progress(projection.schema, on: connection) {
                // Schemas made before set-asides existed get their table.
                try ProjectionSchema.createSetAsideTable(in: projection.schema, on: connection)
                // Schemas made before the roles were separate (0011) become the projector role's.
                do {
                    try connection.transaction { try ProjectionSchema.handOver(projection.schema, on: $0) }
                } catch let error as PostgresError where error.sqlState == PostgresError.SQLState.insufficientPrivilege {
                    log(.warning, "the service's role can still write this projection", ["projection": projection.name,
                        "error": error.message])
                }
                if let failed = checkpoint.failedPosition {
                    // A restart (usually with fixed code) retries a projection that stopped.
                    log(.warning, "retrying a projection that stopped on a poison event", ["projection": projection.name,
                        "position": String(failed), "error": checkpoint.error ?? ""])
                    try connection.query("UPDATE \(connection.quoteIdentifier(projection.schema))._checkpoint SET failed_position = NULL, error = NULL")
                }
                if checkpoint.version != projection.version {
                    log(.info, "projection version changed; rebuilding", ["projection": projection.name,
                        "stored_version": String(checkpoint.version), "code_version": String(projection.version)])
                    outdated.append(projection)
                }
            } else {
                try connection.transaction { try ProjectionSchema.create(projection.schema, for: projection, on: $0) }
                log(.info, "projection created", ["projection": projection.name])
            }
            if !outdated.contains(where: { $0.name == projection.name }),
               let checkpoint = try ProjectionSchema.progress(projection.schema, on: connection), checkpoint.position < firstLive - 1 {
                log(.info, "projection behind the archived positions; rebuilding from the archive", ["projection": projection.name,
                    "position": String(checkpoint.position), "archived_through": String(firstLive - 1)])
                outdated.append(projection)
            }
        }
        if !outdated.isEmpty {
            var rebuilder = ProjectionRebuilder(conninfo: configuration.conninfo, batchSize: configuration.batchSize, log: log)
            if firstLive > 1 {
                guard let directory = configuration.archiveDirectory else {
                    throw ArchivedPositions(requested: 1, firstLive: firstLive)
                }
                rebuilder.archives = try LogReader(connection).archiveFiles(in: directory)
            }
            try rebuilder.rebuild(outdated)
        }
    }

    /// Applies one batch to every projection that is behind; returns the events read.
    func runBatch(on connection: PostgresConnection) throws -> Int {
        let started = DispatchTime.now().uptimeNanoseconds
        do {
            // One round trip. A crash before the commit is flushed loses the batch and its
            // checkpoint together, so the next batch applies it again: nothing is lost or
            // applied twice.
            try connection.pipeline([("BEGIN", []), ("SET LOCAL synchronous_commit TO off", []),
                                     ("SELECT pg_advisory_xact_lock($1, $2)", [String(AdvisoryLock.namespace), String(AdvisoryLock.projectionSwap)])])
            let setAsides = try SetAsides.load(on: connection)
            var active: [(any Projection, Int64)] = []
            let checkpoints = try ProjectionSchema.progress(of: configuration.projections.map(\.schema), on: connection)
            for projection in configuration.projections {
                guard let checkpoint = checkpoints[projection.schema] else { continue }
                if let failed = checkpoint.failedPosition {
                    // A projection stopped on an event an operator has set aside since goes on.
                    guard setAsides.forProjection(projection.name)[failed] != nil else { continue }
                    try connection.query("UPDATE \(connection.quoteIdentifier(projection.schema))._checkpoint SET failed_position = NULL, error = NULL")
                    log(.warning, "projection resumes past an event set aside", ["projection": projection.name, "position": String(failed)])
                }
                active.append((projection, checkpoint.position))
                for (position, entry) in setAsides.forProjection(projection.name) where position <= checkpoint.position
                    && entry.position > checkpoint.position
                    && reportedLateSetAsides.withLock({ $0.insert("\(projection.name):\(position)").inserted }) {
                    // Set aside after this projection had applied it (the code was fixed and
                    // restarted meanwhile): a replay would skip it, this projection did not.
                    log(.error, "an event this projection applied was set aside: rebuild it (ledger replay) so that it matches a replay",
                        ["projection": projection.name, "position": String(position)])
                }
            }
            guard let from = active.map(\.1).min() else {
                try connection.query("COMMIT")
                return 0
            }
            let events = try readAhead.take(after: from) ?? LogReader(connection).read(after: from, limit: configuration.batchSize)
            // Behind the head: the next batch is read while this one is applied. (At the head
            // the next batch is read when a notification says it exists, never ahead of it.)
            if events.count == configuration.batchSize { readAhead.start(after: events.last!.position) }
            guard !events.isEmpty else {
                try connection.query("COMMIT")
                return 0
            }
            // Decoding needs no database: every projection decodes its part of the batch side
            // by side, then each is applied in turn in this one transaction.
            let pending = active.map { projection, checkpoint in events.drop { $0.position <= checkpoint } }
            let decoders = active.map { projection, _ in setAsides.forProjection(projection.name).isEmpty ? projection : nil }
            let prepared = Mutex<[Int: any Sendable]>([:])
            DispatchQueue.concurrentPerform(iterations: active.count) { i in
                guard let decoded = decoders[i]?.prepare(pending[i]) else { return }
                prepared.withLock { $0[i] = decoded }
            }
            var failures: [ProjectionFailure] = []
            for (i, (projection, checkpoint)) in active.enumerated() {
                let applier = ProjectionApplier(projection: projection, schema: projection.schema,
                                                setAside: setAsides.forProjection(projection.name))
                if case .failed(let failure, _) = try applier.apply(pending[i], from: checkpoint,
                                                                    prepared: prepared.withLock { $0.removeValue(forKey: i) },
                                                                    on: connection) {
                    failures.append(failure)
                }
            }
            if let crash = configuration.crashAfterApplying, events.last!.position >= crash {
                log(.error, "fault injection: exiting after applying, before the checkpoint commits", ["position": String(events.last!.position)])
                exit(97)
            }
            // The rate goes out with the checkpoints it explains, in one round trip.
            if let rate = foldRate.withLock({ $0.perSecond }) {
                try connection.pipeline([("SELECT pg_notify($1, $2)", [Self.foldRateChannel, String(Int64(rate.rounded()))]),
                                         ("COMMIT", [])])
            } else {
                try connection.query("COMMIT")
            }
            let through = events.last!.position
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            status.withLock { s in
                s.appliedThrough = through
                s.batches += 1
                s.eventsApplied += events.count
                s.busySeconds += seconds
                s.failed.append(contentsOf: failures.map(\.projection))
            }
            for failure in failures {
                log(.error, "projection stopped on a poison event", ["projection": failure.projection,
                    "position": String(failure.position), "type": failure.eventType, "error": failure.message])
            }
            return events.count
        } catch {
            if connection.isOpen { _ = try? connection.query("ROLLBACK") }
            throw error
        }
    }
}
