import EventStore
import Foundation
import LedgerServices
import Postgres
import ProjectionEngine
import Projections

/// `ledger projections`: where each projection stands.
public enum ProjectionsCommand: LedgerCommand {
    public static let name = "projections"
    public static let summary = "Show each projection's position, lag, version and failure, and table checksums."
    public static let usage = """
        usage: ledger projections [--checksums]

        For each projection: the position it has applied, its lag behind the log's head,
        the code version that built it, and the position and error it stopped at, if any.
        Then what the projector's last drift check found (docs/operations.md, "Drift"):
        each account whose live rows differ from the log's fold, figure by figure. Exits
        with status 1 when a projection is missing or stopped, or an account drifted.

          --checksums   also print a checksum of every table (what replay compares)
        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: [], boolean: ["checksums"])
        let url = try environment.databaseURL()
        // A connection of its own, held for the whole listing (checksums may take long).
        let connection = try PostgresConnection(conninfo: environment.directDatabaseURL(for: url))
        let head = try LogReader(connection).headPosition()
        print("head \(head)")
        var healthy = true
        for projection in AllProjections.all {
            guard let checkpoint = try ProjectionSchema.progress(projection.schema, on: connection) else {
                print("\(projection.name): not created yet (start `ledger project`)")
                healthy = false
                continue
            }
            var line = "\(projection.name): position \(checkpoint.position), lag \(head - checkpoint.position), version \(checkpoint.version)"
            if checkpoint.version != projection.version { line += " (code has \(projection.version): rebuild pending)" }
            if let failed = checkpoint.failedPosition {
                line += ", STOPPED at \(failed): \(checkpoint.error ?? "")"
                healthy = false
            }
            print(line)
            if args.flag("checksums") {
                for table in projection.tables {
                    print("  \(table): \(try ProjectionSchema.checksum(schema: projection.schema, table: table, on: connection))")
                }
            }
        }
        let drift = try DriftStatus.read(connections: try environment.databasePool(url, maximumConnections: 1), every: 0, now: SystemClock.now())
        for p in drift.projections {
            guard let check = p.lastCompleted else {
                print("\(p.projection) drift check: none completed yet (the last stopped on \(p.last.failureCode ?? "?"))")
                continue
            }
            let at = "at position \(check.position ?? 0), \(check.started.iso8601)"
            guard !check.drifted.isEmpty else {
                print("\(p.projection) drift check: \(check.accounts.count) accounts folded again from the log \(at): none differs")
                continue
            }
            healthy = false
            print("\(p.projection) drift check: \(check.drifted.count) of \(check.accounts.count) accounts DIFFER from the log \(at)")
            for finding in check.findings {
                print("  \(finding.account) \(finding.figure): live \(finding.live), folded from the log \(finding.refolded)")
            }
        }
        return healthy ? 0 : 1
    }
}
