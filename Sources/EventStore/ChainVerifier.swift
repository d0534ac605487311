import Crypto
import LedgerDomain
import Postgres

/// Recomputes the hash chain of the whole log (`ledger verify`).
///
/// Reads in position order, in chunks, and checks for each event: its position follows
/// the previous one, its `prev_hash` is the previous event's `hash`, and its `hash` is
/// SHA-256 of `prev_hash` and its canonical bytes, recomputed from the row as stored.
public struct ChainVerifier: Sendable {
    public struct Failure: Sendable, Equatable, CustomStringConvertible {
        public var position: Int64
        public var reason: String
        public var description: String { "position \(position): \(reason)" }
    }

    public struct Report: Sendable {
        /// Events checked before the first failure (all of them when there is none).
        public var verified: Int64
        public var headPosition: Int64
        public var headHash: [UInt8]
        /// Positions 1 to this are archived (`ledger archive`): the walk starts after them,
        /// from the hash the log's archive act recorded; 0 when nothing is archived.
        public var archivedThrough: Int64 = 0
        public var failure: Failure?
        /// Things an auditor should know that do not break the chain (a disabled trigger).
        public var warnings: [String]
        public var isValid: Bool { failure == nil }
    }

    /// A position and the hash recorded for it outside the database (a head written down
    /// after a backup, or a checkpoint an auditor keeps): the chain must pass through it.
    public struct Expectation: Sendable, Equatable {
        public var position: Int64
        public var hash: [UInt8]
        public init(position: Int64, hash: [UInt8]) {
            self.position = position
            self.hash = hash
        }
    }

    public var chunkSize: Int

    /// The query docs/audit.md gives auditors: the first position where the chain breaks,
    /// or no row, with PostgreSQL's own `sha256`. The tests run it against the same logs
    /// as `verify`, so that the two cannot drift apart.
    public static let auditorSQL = """
        SELECT position FROM (
          SELECT position, prev_hash, hash,
                 lag(hash, 1, '\\x0000000000000000000000000000000000000000000000000000000000000000'::bytea)
                   OVER (ORDER BY position) AS previous,
                 lag(position, 1, 0::bigint) OVER (ORDER BY position) AS previous_position,
                 sha256(prev_hash || event_canonical_bytes(e)) AS recomputed
          FROM events e
        ) chain
        WHERE position <> previous_position + 1 OR prev_hash <> previous OR hash <> recomputed
        ORDER BY position LIMIT 1
        """

    public init(chunkSize: Int = 10_000) { self.chunkSize = chunkSize }

    /// Walks the whole chain; each of `expectations` must name an event of the log with
    /// exactly that hash. A rewritten history that was re-hashed from the change onwards
    /// verifies on its own, but not against a hash recorded before the rewrite.
    public func verify(on connection: PostgresConnection, expecting expectations: [Expectation] = [],
                       progress: (Int64) -> Void = { _ in }) throws -> Report {
        let expected = Dictionary(expectations.map { ($0.position, $0.hash) }, uniquingKeysWith: { first, _ in first })
        var report = Report(verified: 0, headPosition: 0, headHash: HashChain.genesis, failure: nil, warnings: try warnings(connection))
        var expectedPosition: Int64 = 1
        var previousHash = HashChain.genesis
        let firstLive = try LogReader(connection).firstLivePosition()
        if firstLive > 1 {
            // The live log continues from the hash its archive act recorded, and that act is
            // itself an event of the live chain: changing the hash breaks the chain after it.
            let acts = try LogReader(connection).readStream(LogArchived.stream).compactMap { try? $0.decode(LogArchived.self) }
            guard let act = acts.last(where: { $0.archivedThrough == firstLive - 1 }), let hash = Hex.decode(act.lastHash), hash.count == 32 else {
                report.failure = Failure(position: 1,
                    reason: "missing: the log starts at position \(firstLive), and no archive act (log.archived) names positions 1 to \(firstLive - 1)")
                return report
            }
            expectedPosition = firstLive
            previousHash = hash
            report.archivedThrough = firstLive - 1
            report.headHash = hash
            for expectation in expectations where expectation.position < firstLive {
                report.warnings.append("position \(expectation.position) is archived: check it against the archive files (--archive)")
            }
        }
        while true {
            let events = try LogReader(connection).read(after: expectedPosition - 1, limit: chunkSize)
            if events.isEmpty { break }
            for event in events {
                if event.position != expectedPosition {
                    report.failure = Failure(position: expectedPosition,
                        reason: "missing: the next event in the log is at position \(event.position)")
                    return report
                }
                let prevHash = event.prevHash, hash = event.hash
                if prevHash != previousHash {
                    report.failure = Failure(position: event.position,
                        reason: "prev_hash \(Hex.encode(prevHash)) is not the hash of position \(event.position - 1) (\(Hex.encode(previousHash)))")
                    return report
                }
                let recomputed = HashChain.hash(previous: previousHash, fields: event.chainFields)
                if recomputed != hash {
                    report.failure = Failure(position: event.position,
                        reason: "hash \(Hex.encode(hash)) does not match the row's content (recomputed \(Hex.encode(recomputed))): the row was altered")
                    return report
                }
                if let recorded = expected[event.position], recorded != hash {
                    report.failure = Failure(position: event.position,
                        reason: "hash \(Hex.encode(hash)) is not the hash recorded for this position (\(Hex.encode(recorded))): the history up to here is not the one that was recorded")
                    return report
                }
                previousHash = hash
                expectedPosition += 1
                report.verified += 1
                report.headPosition = event.position
                report.headHash = hash
            }
            progress(report.verified)
        }
        if let beyond = expectations.filter({ $0.position > report.headPosition }).map(\.position).min() {
            report.failure = Failure(position: beyond,
                reason: "the log ends at position \(report.headPosition), before the recorded position \(beyond): events that were recorded are missing")
        }
        return report
    }

    private func warnings(_ connection: PostgresConnection) throws -> [String] {
        let rows = try connection.query("""
            SELECT t.name, g.tgenabled FROM
              (VALUES ('events_no_update'), ('events_no_delete'), ('events_no_truncate'), ('events_check_append')) AS t(name)
              LEFT JOIN pg_trigger g ON g.tgname = t.name AND g.tgrelid = 'public.events'::regclass
            ORDER BY t.name
            """)
        var warnings = rows.rows.compactMap { row -> String? in
            let name = row.string(0) ?? "?"
            guard let state = row.string(1) else { return "trigger \(name) is missing" }
            return state == "D" ? "trigger \(name) is disabled" : nil
        }
        // A statement naming a partition does not fire the triggers of `events`: each
        // partition refuses inserts and truncation itself.
        let unguarded = try connection.query("""
            SELECT p.name FROM event_log_partitions p WHERE NOT EXISTS (
                SELECT 1 FROM pg_trigger g WHERE g.tgrelid = p.name::regclass AND g.tgenabled <> 'D'
                AND g.tgname IN ('events_partition_no_insert', 'events_partition_no_truncate') HAVING count(*) = 2)
            ORDER BY p.first_position
            """)
        warnings += unguarded.rows.map { "partition \($0.string(0) ?? "?") does not refuse direct inserts and truncation (trigger missing or disabled)" }
        return warnings
    }
}
