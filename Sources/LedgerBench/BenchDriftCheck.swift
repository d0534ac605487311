import Foundation
import LedgerServices
import Postgres
import Synchronization
import Workers

/// The drift check beside the benchmark's projector (`ingest --projector --drift-every S`),
/// as `ledger project` runs it (`DriftCheckJob`, a sample of 20): what each check took, to
/// show what it costs the projector beside it.
final class BenchDriftCheck: Sendable {
    private let job: DriftCheckJob
    private let connections: PostgresPool
    private let checks = Mutex<[DriftCheckRecord]>([])
    private let stopped = Atomic<Bool>(false)

    init(url: String, every: Double) throws {
        connections = PostgresPool(conninfo: url, maximumConnections: 2)
        let check = ProjectionDriftCheck(connections: connections, settings: .init(every: every, sample: ProjectionDriftCheck.Settings.defaultSample))
        job = DriftCheckJob(check: check, isActive: { true }, log: { level, message, fields in
            guard level == .warning || level == .error else { return }
            BenchOutput.line("drift check \(level.rawValue): \(message) \(fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))")
        })
        job.start()
    }

    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        job.stop()
        checks.withLock { $0 = (try? DriftChecks(connections: connections).history(projection: "billing", limit: 1_000)) ?? [] }
        connections.closeIdle()
    }

    /// `drift checks: N (every S s), each T1–T2 ms (median M), A accounts and E events folded at most; none drifted`.
    func summary() -> String {
        let all = checks.withLock { $0 }
        let times = all.compactMap { c in c.finished.map { ($0.seconds - c.started.seconds) * 1_000 } }.sorted()
        guard !times.isEmpty else { return "drift checks: none ran" }
        let drifted = all.filter { !$0.drifted.isEmpty }.count
        let failed = all.filter { $0.failureCode != nil }.count
        return String(format: "drift checks: %d, each %.1f–%.1f ms (median %.1f), up to %d accounts and %d events folded; %d found drift, %d did not complete",
                      all.count, times.first!, times.last!, times[times.count / 2], all.map(\.accounts.count).max() ?? 0,
                      all.map(\.events).max() ?? 0, drifted, failed)
    }
}
