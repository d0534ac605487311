import EventStore
import Foundation
import Postgres
import Crypto

/// `ledger verify`: recomputes the whole hash chain.
public enum VerifyCommand: LedgerCommand {
    public static let name = "verify"
    public static let summary = "Recompute the event log's hash chain; non-zero exit naming the first bad position."
    public static let usage = """
        usage: ledger verify [--json]

        Reads the log in position order and checks, for every event, that positions follow
        each other without a hole, that prev_hash is the previous event's hash, and that
        hash = SHA-256(prev_hash || canonical bytes) recomputed from the stored row
        (docs/audit.md gives the formula). Exit 0 when the chain holds, 1 naming the first
        bad position when it does not. Also reports immutability triggers that are
        disabled or missing.

          --json   print the report as JSON
        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: [], boolean: ["json"])
        let connection = try PostgresConnection(conninfo: environment.databaseURL())
        let total = try EventStore.headPosition(on: connection)
        let bar = ProgressBar(label: "verify")
        let report = try ChainVerifier().verify(on: connection) { bar.update(done: $0, total: total) }
        bar.finish()
        if args.flag("json") {
            var object: [String: Any] = [
                "valid": report.isValid, "verified": report.verified, "head_position": report.headPosition,
                "head_hash": Hex.encode(report.headHash), "warnings": report.warnings,
            ]
            if let failure = report.failure { object["failure"] = ["position": failure.position, "reason": failure.reason] }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            for warning in report.warnings { print("warning: \(warning)") }
            if let failure = report.failure {
                print("INVALID at position \(failure.position): \(failure.reason)")
                print("\(report.verified) events verified before it")
            } else {
                print("valid: \(report.verified) events, head \(report.headPosition), hash \(Hex.encode(report.headHash))")
            }
        }
        return report.isValid ? 0 : 1
    }
}
