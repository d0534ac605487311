import Crypto
import EventStore
import Foundation
import Postgres

/// `ledger verify`: recomputes the whole hash chain.
public enum VerifyCommand: LedgerCommand {
    public static let name = "verify"
    public static let summary = "Recompute the event log's hash chain; non-zero exit naming the first bad position."
    public static let usage = """
        usage: ledger verify [--expect POSITION:HASH ...] [--archive FILE ...] [--json]

        Reads the log in position order and checks, for every event, that positions follow
        each other without a hole, that prev_hash is the previous event's hash, and that
        hash = SHA-256(prev_hash || canonical bytes) recomputed from the stored row
        (docs/audit.md gives the formula). Exit 0 when the chain holds, 1 naming the first
        bad position when it does not. Also reports immutability triggers that are
        disabled or missing.

          --expect POSITION:HASH   the chain must pass through this event with this
                                   hash (64 hex digits), e.g. a head written down
                                   outside the database after a backup; repeatable.
                                   A history rewritten and re-hashed after it fails.
          --archive FILE           a segment of the log in a file, as `ledger export events
                                   --format jsonl` writes it: checked on its own (positions
                                   without a hole, each prev_hash linked, each hash
                                   recomputed), linked to the files given before it, and
                                   against the live log where it holds the same positions
                                   (the same hash at both ends); repeatable, in order
          --json                   print the report as JSON
        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["expect", "archive"], boolean: ["json"])
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument \(args.positionals[0])") }
        let expectations = try args.values("expect").map(parseExpectation)
        // A connection of its own, held while the whole chain is read.
        let connection = try PostgresConnection(conninfo: environment.directDatabaseURL(for: environment.databaseURL()))
        if !args.values("archive").isEmpty {
            guard try verifyArchives(args.values("archive"), against: connection) else { return 1 }
        }
        let total = try LogReader(connection).headPosition()
        let bar = ProgressBar(label: "verify")
        let report = try ChainVerifier().verify(on: connection, expecting: expectations) { bar.update(done: $0, total: total) }
        bar.finish()
        if args.flag("json") {
            var object: [String: Any] = [
                "valid": report.isValid, "verified": report.verified, "head_position": report.headPosition,
                "head_hash": Hex.encode(report.headHash), "warnings": report.warnings, "archived_through": report.archivedThrough,
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
                if report.archivedThrough > 0 {
                    print("positions 1 to \(report.archivedThrough) are archived: the live log continues from the hash its archive act recorded\(args.values("archive").isEmpty ? " (give the files with --archive to check them)" : "")")
                }
                print("valid: \(report.verified) events, head \(report.headPosition), hash \(Hex.encode(report.headHash))")
                for expectation in expectations {
                    print("passes through \(expectation.position):\(Hex.encode(expectation.hash))")
                }
            }
        }
        return report.isValid ? 0 : 1
    }

    /// Checks each archived segment on its own, their links to each other, and where the
    /// live log still holds a segment's positions, that its hashes are the same at both
    /// ends; prints a line per file. False when anything does not hold.
    static func verifyArchives(_ paths: [String], against connection: PostgresConnection) throws -> Bool {
        var previous: ArchiveSegment?
        for path in paths {
            let checked = Result { () throws(ArchiveReader.Invalid) -> ArchiveSegment in try ArchiveSegment.read(path) }
            guard case .success(let segment) = checked else {
                if case .failure(let invalid) = checked { print("INVALID archive \(invalid)") }
                return false
            }
            if let previous, segment.firstPosition != previous.lastPosition + 1 || segment.previousHash != previous.lastHash {
                print("INVALID archive \(path): does not continue \(previous.path) (which ends at \(previous.lastPosition))")
                return false
            }
            var live: [String] = []
            for (position, hash) in [(segment.firstPosition - 1, segment.previousHash), (segment.lastPosition, segment.lastHash)] where position > 0 {
                guard let event = try LogReader(connection).event(at: position) else { continue }
                guard event.hash == hash else {
                    print("INVALID archive \(path): the live log's event \(position) has hash \(Hex.encode(event.hash)), the archive \(Hex.encode(hash))")
                    return false
                }
                live.append(String(position))
            }
            // The live log, or the file after, continues where this one ends.
            if let next = try LogReader(connection).event(at: segment.lastPosition + 1) {
                guard next.prevHash == segment.lastHash else {
                    print("INVALID archive \(path): the live log's event \(next.position) does not link to the archive's last hash \(Hex.encode(segment.lastHash))")
                    return false
                }
                live.append("\(next.position) (linked)")
            }
            print("archive \(path): valid, events \(segment.firstPosition) to \(segment.lastPosition) (\(segment.events)), hash \(Hex.encode(segment.lastHash))"
                  + (live.isEmpty ? "" : "; the same as the live log at \(live.joined(separator: " and "))"))
            previous = segment
        }
        return true
    }

    /// `POSITION:HASH`, as `ledger verify` prints a head (`head P, hash H`) and its JSON
    /// gives it (`head_position`, `head_hash`).
    static func parseExpectation(_ text: String) throws -> ChainVerifier.Expectation {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let position = Int64(parts[0]), position > 0 else {
            throw UsageError("--expect takes POSITION:HASH with a positive position, got \(text)")
        }
        guard parts[1].count == 64, let hash = Hex.decode(parts[1].lowercased()) else {
            throw UsageError("--expect \(text): the hash must be 64 hex digits (a SHA-256)")
        }
        return ChainVerifier.Expectation(position: position, hash: hash)
    }
}
