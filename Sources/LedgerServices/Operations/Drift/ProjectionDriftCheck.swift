import Foundation
import LedgerDomain
import Postgres
import ProjectionEngine
import Projections

/// The drift check (docs/operations.md, "Drift: the projections checked against the log"):
/// for each projection that can fold an account apart (`AccountSampling`: billing), a
/// sample of accounts folded again from the log by the projection's own fold and compared
/// with the live rows (`DriftSample`), the accounts found drifted last time compared again
/// whatever else is sampled; each check recorded (`DriftChecks`). `ledger project` runs it
/// on a schedule while it is the active projector (`DriftCheckJob`).
public struct ProjectionDriftCheck: Sendable {
    public struct Settings: Sendable, Equatable {
        /// LEDGER_DRIFT_CHECK_EVERY: seconds between two checks; 0 turns the check off.
        public var every: Double
        /// LEDGER_DRIFT_CHECK_SAMPLE: accounts chosen per check besides those rechecked.
        public var sample: Int

        public static let defaultEvery: Double = 300
        public static let defaultSample = 20

        public init(every: Double = Self.defaultEvery, sample: Int = Self.defaultSample) {
            self.every = every
            self.sample = sample
        }
    }

    public let connections: PostgresPool
    public let settings: Settings
    public let projections: [any AccountSampling]
    public let now: LedgerClock

    /// `connections`: a login that may read the log and the projections, create temporary
    /// tables and write the checks (the projector's, or an operator's); two connections.
    public init(connections: PostgresPool, settings: Settings = Settings(),
                projections: [any Projection] = AllProjections.all, now: @escaping LedgerClock = SystemClock.now) {
        self.connections = connections
        self.settings = settings
        self.projections = projections.compactMap { $0 as? any AccountSampling }
        self.now = now
    }

    /// Checks each projection once and records each check; the records, in order.
    /// `mayGoOn` is asked between projections.
    public func run(mayGoOn: () -> Bool = { true }) throws -> [DriftCheckRecord] {
        let checks = DriftChecks(connections: connections)
        var out: [DriftCheckRecord] = []
        for projection in projections {
            guard mayGoOn() else { break }
            let started = now()
            var record = DriftCheckRecord(id: UUID(), projection: projection.name, position: nil, started: started, finished: nil,
                                          accounts: [], drifted: [], skipped: [], events: 0, findings: [], failureCode: nil, failure: nil)
            do {
                let recheck = try checks.lastDrifted(projection: projection.name)
                // A session lock and temporary tables: never through a pooler in transaction mode.
                let report = try connections.withSessionConnection { connection in
                    try DriftSample.check(projection, recheck: recheck,
                                          settings: DriftSample.Settings(size: settings.sample), on: connection)
                }
                record.position = report.position
                record.accounts = report.accounts
                record.drifted = report.drifted
                record.skipped = report.skipped.map { "\($0.account): \($0.reason)" }
                record.events = report.events
                record.findings = report.differences.map {
                    .init(account: $0.account, figure: $0.figure, live: $0.live, refolded: $0.rebuilt)
                }
            } catch let refusal as DriftSample.NotChecked {
                record.failureCode = refusal.code
                record.failure = refusal.message
            } catch {
                record.failureCode = "check_failed"
                record.failure = "\(error)"
            }
            record.finished = now()
            try checks.record(record, now: record.finished ?? started)
            out.append(record)
        }
        return out
    }
}
