import EventStore
import Foundation
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

          --checksums   also print a checksum of every table (what replay compares)
        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: [], boolean: ["checksums"])
        let connection = try PostgresConnection(conninfo: environment.databaseURL())
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
        return healthy ? 0 : 1
    }
}
