import Crypto
import EventStore
import Foundation
import LedgerDomain
import Postgres
import ProjectionEngine
import Projections
import Synchronization

/// The console's long work: a verification of the whole chain, and a projection rebuilt
/// beside the live one until an operator has seen what it changes. Each runs on a thread
/// of its own with a connection of its own, never on a request thread; pages show its
/// progress and refresh themselves (no script). One of each at a time per console process;
/// a rebuild is also one at a time per database (the rebuild lock).
public final class ConsoleJobs: Sendable {
    public struct Verification: Sendable {
        public var by: String
        public var started: Timestamp
        public var checked: Int64 = 0
        public var head: Int64
        public var report: ChainVerifier.Report?
        public var error: String?
        public var finished: Double?
    }

    public struct Rebuild: Sendable {
        public enum Phase: String, Sendable { case building, comparing, ready, swapping, swapped, discarded, failed }
        /// Names this rebuild in the forms that decide it, so that a stale page cannot
        /// swap a later one.
        public var id: String
        public var projection: String
        public var by: String
        public var started: Timestamp
        public var phase: Phase = .building
        public var position: Int64 = 0
        public var head: Int64 = 0
        public var differences: [ProjectionDifferences] = []
        /// What decided it: who, and the position of the `projection.rebuilt` record.
        public var decidedBy: String?
        public var recordedAt: Int64?
        public var error: String?
        fileprivate var choice: Decision?
    }

    /// What an operator decides about a rebuild that is ready.
    public enum Decision: Sendable { case swap(operatorName: String, reason: String, key: String), discard }

    /// What a rebuild changes against the live projection, per table and per account.
    public typealias Differences = ProjectionDifferences

    /// Why a rebuild does not start.
    public enum RebuildRefusal: Error, Sendable {
        /// No projection has this name; the names there are.
        case unknownProjection(known: [String])
        /// The console may not write the projection: it has no login in the projector's
        /// role (LEDGER_PROJECTOR_DATABASE_URL), or that login does not own it.
        case needsProjectorRole
        /// Another rebuild is under way or waits for a decision.
        case running
    }

    private let verification = Mutex<Verification?>(nil)
    private let rebuild = Mutex<Rebuild?>(nil)
    private let database: LedgerDatabase
    /// On the projector's login (LEDGER_PROJECTOR_DATABASE_URL): what a rebuild may swap.
    private let projectorConninfo: String?
    private let projectorPool: PostgresPool?
    /// A rebuild nobody decides about is discarded after this many seconds: it holds the
    /// rebuild lock and a copy of the projection's tables.
    public let readyTimeout: Double

    public init(database: LedgerDatabase, projectorConninfo: String?, readyTimeout: Double = 1_800) {
        self.database = database
        self.projectorConninfo = projectorConninfo
        self.projectorPool = projectorConninfo.map { PostgresPool(conninfo: $0, maximumConnections: 1) }
        self.readyTimeout = readyTimeout
    }

    public var currentVerification: Verification? { verification.withLock { $0 } }
    public var currentRebuild: Rebuild? { rebuild.withLock { $0 } }

    /// The projections and what this console may rebuild of them.
    public var overview: ProjectionsOverviewQuery { ProjectionsOverviewQuery(projectorPool: projectorPool) }

    /// Starts verifying the chain unless a verification is running; false when one is.
    public func startVerification(by name: String, now: Timestamp) -> Bool {
        let conninfo = database.conninfo
        let started = verification.withLock { current -> Bool in
            if let current, current.finished == nil { return false }
            current = Verification(by: name, started: now, head: 0)
            return true
        }
        guard started else { return false }
        let thread = Thread { [self] in
            do {
                let connection = try PostgresConnection(conninfo: conninfo)
                let head = try LogReader(connection).headPosition()
                verification.withLock { $0?.head = head }
                let report = try ChainVerifier().verify(on: connection) { checked in
                    self.verification.withLock { $0?.checked = checked }
                }
                verification.withLock {
                    $0?.report = report
                    $0?.checked = report.verified
                    $0?.finished = Date().timeIntervalSince1970
                }
            } catch {
                verification.withLock {
                    $0?.error = "\(error)"
                    $0?.finished = Date().timeIntervalSince1970
                }
            }
        }
        thread.name = "console-verify"
        thread.start()
        return true
    }

    /// Starts rebuilding the projection `projectionName` beside the live one (what `ledger
    /// replay --projection NAME` does); its id. Once an operator swaps it in and the swap
    /// has committed, `projection.rebuilt` is appended in their name.
    public func startRebuild(projectionNamed projectionName: String, by name: String, now: Timestamp) throws -> String {
        guard let projection = AllProjections.named(projectionName) else {
            throw RebuildRefusal.unknownProjection(known: AllProjections.all.map(\.name))
        }
        guard let conninfo = projectorConninfo,
              try projectorPool?.read({ try ProjectionSchema.swappable([projection.schema], on: $0) }).isEmpty == false else {
            throw RebuildRefusal.needsProjectorRole
        }
        // The record of a swap is the projector's to append, as `ledger replay`'s is: the
        // console's role may append only the acts its pages offer (migration 0013).
        let record: @Sendable ([ProjectionDifferences], String, String, String) throws -> Int64 = { differences, name, reason, key in
            let store = EventStore(conninfo: conninfo)
            defer { store.close() }
            return try ProjectionDifferences.record(differences, store: store, actor: Actor(.operator, name), reason: reason,
                                                    requestID: "console-" + Hex.encode(SecureRandom.bytes(8)), key: key, attempts: 5)
        }
        let id = UUID().uuidString.lowercased()
        let started = rebuild.withLock { current -> Bool in
            if let current, [.building, .comparing, .ready, .swapping].contains(current.phase) { return false }
            current = Rebuild(id: id, projection: projection.name, by: name, started: now)
            return true
        }
        guard started else { throw RebuildRefusal.running }
        let thread = Thread { [self] in self.runRebuild(projection, conninfo: conninfo, record: record) }
        thread.name = "console-rebuild"
        thread.start()
        return id
    }

    /// An operator's decision about the rebuild `id`; false when that rebuild is not the
    /// one waiting for a decision.
    public func decide(_ id: String, _ choice: Decision) -> Bool {
        rebuild.withLock { current -> Bool in
            guard current?.id == id, current?.phase == .ready, current?.choice == nil else { return false }
            current?.choice = choice
            if case .swap(let name, _, _) = choice {
                current?.phase = .swapping
                current?.decidedBy = name
            }
            return true
        }
    }

    /// Waits (on the rebuild's own thread) for an operator's decision; after the timeout
    /// the rebuild is discarded, and a decision that comes later is refused.
    private func awaitDecision() -> Decision {
        let deadline = Date().timeIntervalSince1970 + readyTimeout
        while true {
            let choice = rebuild.withLock { current -> Decision? in
                if let choice = current?.choice { return choice }
                guard Date().timeIntervalSince1970 < deadline else {
                    current?.choice = .discard
                    return .discard
                }
                return nil
            }
            if let choice { return choice }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    private func runRebuild(_ projection: any Projection, conninfo: String,
                            record: @Sendable ([ProjectionDifferences], String, String, String) throws -> Int64) {
        @Sendable func set(_ change: (inout Rebuild) -> Void) { rebuild.withLock { if $0 != nil { change(&$0!) } } }
        do {
            let rebuilder = ProjectionRebuilder(conninfo: conninfo, log: { _, _, _ in }) { _, position, head in
                set { $0.position = position; $0.head = head }
            }
            let rebuilt = try rebuilder.build([projection])
            set { $0.phase = .comparing }
            let differences = try rebuilt.differences()
            set { $0.differences = differences; $0.phase = .ready }
            guard case .swap(let name, let reason, let key) = awaitDecision() else {
                rebuilt.discard()
                set { $0.phase = .discarded }
                return
            }
            do {
                try rebuilt.swap()
            } catch {
                set { $0.phase = .failed; $0.error = "the swap failed, nothing was swapped: \(error)" }
                return
            }
            set { $0.phase = .swapped }
            do {
                let position = try record(differences, name, reason, key)
                set { $0.recordedAt = position }
            } catch {
                set { $0.error = "swapped, but its record could not be appended: \(error)" }
            }
        } catch {
            set { $0.phase = .failed; $0.error = "\(error)" }
        }
    }
}
