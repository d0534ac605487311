import Dispatch
import EventStore
import Foundation
import LedgerCLI
import Observability
import Postgres
import ProjectionEngine
import Projections
import Synchronization

/// The real projector (every projection, `ledger project`'s batch size) on a thread of the
/// benchmark's process, and a wait for it that prints its progress.
final class BenchProjector: Sendable {
    private let projector: Projector
    private let stop = Atomic<Bool>(false)
    private let stopped = DispatchSemaphore(value: 0)

    init(url: String, batchSize: Int = 5_000, throttle: Double? = nil) {
        var configuration = Projector.Configuration(conninfo: url, projections: AllProjections.all, batchSize: batchSize, pollInterval: 0.1)
        configuration.throttle = throttle
        projector = Projector(configuration: configuration,
                              log: { level, message, fields in
                                  // The projector's info lines (active, created) add nothing here.
                                  guard level == .warning || level == .error else { return }
                                  let detail = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                                  BenchOutput.line("projector \(level.rawValue): \(message) \(detail)")
                              })
        let thread = Thread { [self] in
            projector.run { self.stop.load(ordering: .relaxed) }
            stopped.signal()
        }
        thread.name = "bench-projector"
        thread.start()
    }

    /// Events the projector applied so far, and the seconds it spent applying them.
    func busy() -> (events: Int, seconds: Double, batches: Int) {
        projector.status.withLock { ($0.eventsApplied, $0.busySeconds, $0.batches) }
    }

    /// Stops after the batch in flight; later calls return at once.
    func shutdown() {
        guard !stop.exchange(true, ordering: .relaxed) else { return }
        stopped.wait()
    }

    /// How far the billing projection got from `start`, and how long it took.
    struct Progress: Sendable {
        var from: Int64
        var to: Int64
        var seconds: Double
        var eventsPerSecond: Double { Double(to - from) / max(seconds, 1e-9) }
    }

    /// Waits until the billing projection has applied `target`, printing a progress line
    /// every `every` seconds; throws if a projection stops on a poison event.
    func wait(for target: Int64, connections: PostgresPool, every: Double = 5) throws -> Progress {
        let from = try Self.billingPosition(connections)
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        var last = (position: from, at: 0.0)
        let progress = ProjectionProgress(conninfo: connections.directConninfo, projections: AllProjections.all, logger: Logger(minimumLevel: .error))
        progress.start()
        defer { progress.stop() }
        while try !progress.waitBlocking(for: BillingProjection().name, position: target, timeout: every) {
            try checkNotFailed(connections)
            let now = elapsed()
            let position = try Self.billingPosition(connections)
            let recent = Double(position - last.position) / max(now - last.at, 1e-9)
            let average = Double(position - from) / max(now, 1e-9)
            let eta = average > 0 ? Double(target - position) / average : 0
            BenchOutput.line(String(format: "projector: %lld of %lld (%.1f%%), %.0f events/s (%.0f over the last %.0f s), about %.0f s to go",
                         position, target, Double(position) / Double(max(target, 1)) * 100, average, recent, now - last.at, eta))
            last = (position, now)
        }
        let reached = Progress(from: from, to: try Self.billingPosition(connections), seconds: elapsed())
        // The others too (a projection new in this build is rebuilt beside the live ones):
        // the reads measured next must not race a projection still folding.
        for projection in AllProjections.all where projection.name != BillingProjection().name {
            while try !progress.waitBlocking(for: projection.name, position: target, timeout: every) {
                try checkNotFailed(connections)
                BenchOutput.line("projector: waiting for the \(projection.name) projection to reach \(target)")
            }
        }
        return reached
    }

    /// The billing projection's position; 0 before the projector has created it.
    static func billingPosition(_ connections: PostgresPool) throws -> Int64 {
        try BillingReadModel(connections: connections).progress()?.position ?? 0
    }

    private func checkNotFailed(_ connections: PostgresPool) throws {
        for projection in AllProjections.all {
            guard let checkpoint = try connections.read({ try ProjectionSchema.progress(projection.schema, on: $0) }),
                  let failed = checkpoint.failedPosition else { continue }
            throw BenchmarkFailure(.projectionFailed, "projection \(projection.name) stopped at position \(failed): \(checkpoint.error ?? "?")")
        }
    }
}
