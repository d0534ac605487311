import EventStore
import Foundation
import LedgerDomain
import Postgres
import ProjectionEngine
import Projections
import Synchronization

/// `ledger replay`: rebuild projections from the log, show what changes, swap them in.
public enum ReplayCommand: LedgerCommand {
    public static let name = "replay"
    public static let summary = "Rebuild projections from zero into a fresh schema, show what changes, then swap them in atomically."
    public static let usage = """
        usage: ledger replay [--projection NAME] [--batch N] [--archive FILE ...] [--dry-run | --yes]
                             [--reason TEXT] [--operator NAME]

        Rebuilds every projection (or only NAME) from position 1 into a new schema while
        the live one keeps serving. Before it swaps, it brings the rebuild to the live
        projection's position and shows what the rebuild changes there: per table the rows
        added, removed and changed, and per account the balance and usage figures that
        differ (live → rebuilt, in millicredits or units). Then it catches up to the head
        and swaps in one transaction (under the lock the projector takes per batch, so no
        batch is lost or applied twice). Stops without swapping on a poison event.

        When nothing changes it swaps at once. When something does, it asks on a terminal
        and, elsewhere, swaps only with --yes (exit status 3 otherwise, nothing swapped).
        A swap is recorded in the log as `projection.rebuilt` (per projection: the tables
        and the number of accounts it changed), as the operator (--operator, else
        LEDGER_OPERATOR, else USER) with the reason (default "ledger replay").

          --projection NAME   one of: \(AllProjections.all.map(\.name).joined(separator: ", "))
          --batch N           events per transaction (default \(ProjectionRebuilder.defaultBatchSize))
          --archive FILE      the files `ledger archive` wrote, in order: the rebuild reads
                              the archived positions from them (each file checked, linked
                              to the next and to the live log), then the live log; needed
                              once positions are archived, repeatable
          --dry-run           show what the rebuild changes, and swap nothing
          --yes               swap even when the rebuild changes something
          --reason TEXT       why, recorded with the swap
          --operator NAME     who, recorded with the swap
        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["projection", "batch", "archive", "reason", "operator"], boolean: ["dry-run", "yes"])
        if args.flag("dry-run") && args.flag("yes") { throw UsageError("--dry-run and --yes exclude each other") }
        let reason = args.value("reason") ?? "ledger replay"
        guard let operatorName = [args.value("operator"), environment.values["LEDGER_OPERATOR"], environment.values["USER"], "unknown"]
            .compactMap({ $0 }).first(where: { !$0.isEmpty }) else { throw UsageError("--operator is empty") }
        guard (1...2_000).contains(reason.utf8.count), operatorName.utf8.count <= 100 else {
            throw UsageError("--reason is 1 to 2,000 bytes, --operator at most 100")
        }
        // A rebuild holds a session lock and connections of its own throughout: PostgreSQL itself.
        let url = try environment.directDatabaseURL(for: environment.projectorDatabaseURL())
        var projections = AllProjections.all
        if let name = args.value("projection") {
            guard let projection = AllProjections.named(name) else {
                throw UsageError("no projection named \(name); known: \(AllProjections.all.map(\.name).joined(separator: ", "))")
            }
            projections = [projection]
        }
        let logger = try environment.logger(component: "replay")
        let bars = ProgressBarSet(projections: projections.map(\.name))
        var rebuilder = ProjectionRebuilder(conninfo: url, batchSize: try args.int("batch", default: ProjectionRebuilder.defaultBatchSize),
                                            log: logger.projectorLog) { name, position, head in
            bars.update(name: name, position: position, head: head)
        }
        rebuilder.archives = args.values("archive")
        let started = Date()
        let rebuilt = try rebuilder.build(projections)
        bars.finish()
        let differences = try rebuilt.differences()
        print(ReplayReport(differences).text, terminator: "")
        let changed = differences.contains { !$0.isUnchanged }
        if args.flag("dry-run") {
            rebuilt.discard()
            print("dry run: nothing swapped")
            return 0
        }
        if changed && !args.flag("yes") {
            guard isatty(STDIN_FILENO) == 1, confirm() else {
                rebuilt.discard()
                print("nothing swapped: the rebuild changes the projection; run again with --yes to swap it in")
                return 3
            }
        }
        try rebuilt.swap()
        bars.finish()
        print(String(format: "swapped in %@ (%.1f s)", projections.map(\.name).joined(separator: ", "), Date().timeIntervalSince(started)))
        // The swap committed; its record is appended under one key per run.
        let store = EventStore(conninfo: url)
        defer { store.close() }
        let key = "replay-" + UUID().uuidString.lowercased()
        do {
            let position = try ProjectionDifferences.record(differences, store: store, actor: Actor(.operator, operatorName),
                                                            reason: reason, requestID: key, key: key)
            print("recorded as projection.rebuilt at position \(position)")
            return 0
        } catch {
            logger.error("swapped, but the record could not be appended", ["error": .string("\(error)")])
            print("swapped, but the record (projection.rebuilt) could not be appended: \(error)")
            return 1
        }
    }

    private static func confirm() -> Bool {
        print("swap the rebuilt projections in? [y/N] ", terminator: "")
        fflush(nil)
        guard let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return answer == "y" || answer == "yes"
    }
}

/// One progress bar for a rebuild. The projections fold side by side, each at its own
/// pace, so the bar shows the slowest one's position against the head.
final class ProgressBarSet: Sendable {
    private struct State: Sendable {
        var positions: [String: Int64] = [:]
    }
    private let names: [String]
    private let state = Mutex(State())
    private let bar: ProgressBar

    init(projections names: [String]) {
        self.names = names
        bar = ProgressBar(label: "replay " + names.joined(separator: ", "))
    }

    /// Called by the rebuild, one call at a time.
    func update(name: String, position: Int64, head: Int64) {
        let slowest = state.withLock { s -> Int64 in
            s.positions[name] = position
            return names.map { s.positions[$0] ?? 0 }.min() ?? position
        }
        bar.update(done: slowest, total: head, force: slowest == head)
    }

    func finish() { bar.finish() }
}
