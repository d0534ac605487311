import EventStore
import Foundation
import LedgerDomain
import Postgres
import ProjectionEngine
import Synchronization

/// The console's long work: a verification of the whole chain, and a projection rebuilt
/// beside the live one until an operator has seen what it changes. Each runs on a thread
/// of its own with a connection of its own, never on a request thread; pages show its
/// progress and refresh themselves (no script). One of each at a time per console process;
/// a rebuild is also one at a time per database (the rebuild lock).
final class ConsoleJobs: Sendable {
    struct Verification: Sendable {
        var by: String
        var started: Timestamp
        var checked: Int64 = 0
        var head: Int64
        var report: ChainVerifier.Report?
        var error: String?
        var finished: Double?
    }

    struct Rebuild: Sendable {
        enum Phase: String, Sendable { case building, comparing, ready, swapping, swapped, discarded, failed }
        /// Names this rebuild in the forms that decide it, so that a stale page cannot
        /// swap a later one.
        var id: String
        var projection: String
        var by: String
        var started: Timestamp
        var phase: Phase = .building
        var position: Int64 = 0
        var head: Int64 = 0
        var differences: [ProjectionDifferences] = []
        /// What decided it: who, and the position of the `projection.rebuilt` record.
        var decidedBy: String?
        var recordedAt: Int64?
        var error: String?
        fileprivate var choice: Decision?
    }

    /// What an operator decides about a rebuild that is ready.
    enum Decision: Sendable { case swap(operatorName: String, reason: String, key: String), discard }

    private let verification = Mutex<Verification?>(nil)
    private let rebuild = Mutex<Rebuild?>(nil)
    /// A rebuild nobody decides about is discarded after this many seconds: it holds the
    /// rebuild lock and a copy of the projection's tables.
    let readyTimeout: Double

    init(readyTimeout: Double = 1_800) { self.readyTimeout = readyTimeout }

    var currentVerification: Verification? { verification.withLock { $0 } }
    var currentRebuild: Rebuild? { rebuild.withLock { $0 } }

    /// Starts verifying the chain unless a verification is running; false when one is.
    func startVerification(by name: String, now: Timestamp, conninfo: String) -> Bool {
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

    /// Starts rebuilding a projection unless a rebuild is under way; nil when one is.
    /// `record` appends the `projection.rebuilt` act once the swap has committed.
    func startRebuild(_ projection: any Projection, by name: String, now: Timestamp, conninfo: String,
                      record: @escaping @Sendable (_ differences: [ProjectionDifferences], _ operatorName: String,
                                                   _ reason: String, _ key: String) throws -> Int64) -> String? {
        let id = UUID().uuidString.lowercased()
        let started = rebuild.withLock { current -> Bool in
            if let current, [.building, .comparing, .ready, .swapping].contains(current.phase) { return false }
            current = Rebuild(id: id, projection: projection.name, by: name, started: now)
            return true
        }
        guard started else { return nil }
        let thread = Thread { [self] in self.runRebuild(projection, conninfo: conninfo, record: record) }
        thread.name = "console-rebuild"
        thread.start()
        return id
    }

    /// An operator's decision about the rebuild `id`; false when that rebuild is not the
    /// one waiting for a decision.
    func decide(_ id: String, _ choice: Decision) -> Bool {
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
