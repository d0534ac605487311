import Dispatch
import EventStore
import Postgres

/// A sample of a projection's accounts folded again from the log, by the projection's own
/// fold, and compared with the live rows at the live projection's position: the drift
/// check (docs/operations.md, "Drift: the projections checked against the log").
///
/// Everything is read in one repeatable-read snapshot: the live projection's position,
/// its rows and the log up to that position, so that the live rows and the events folded
/// again describe the same moment while the projector goes on. The events are folded into
/// the projection's tables created in the session's temporary schema (`pg_temp`), never
/// written to disk by WAL and gone when the transaction rolls back, as it always does: a
/// check writes nothing. The rebuild lock is held meanwhile (tried, never waited for), so
/// that no replay swaps the live schema under the snapshot.
public enum DriftSample {
    public struct Settings: Sendable, Equatable {
        /// Accounts chosen per check besides those rechecked: half among the most recently
        /// changed, the rest at random.
        public var size: Int
        /// How far back from the position the recently changed accounts are looked for, in events.
        public var recentWindow: Int64
        /// Events a check folds at most: an account whose streams would take it past this is
        /// skipped, and said so.
        public var maximumEvents: Int64
        /// Events read and folded at a time.
        public var batchSize: Int

        public init(size: Int = 20, recentWindow: Int64 = 10_000, maximumEvents: Int64 = 200_000, batchSize: Int = 5_000) {
            self.size = size
            self.recentWindow = recentWindow
            self.maximumEvents = maximumEvents
            self.batchSize = batchSize
        }
    }

    /// An account chosen and not compared, and why.
    public struct Skipped: Sendable, Codable, Equatable {
        public var account: String
        public var reason: String
        public init(account: String, reason: String) {
            self.account = account
            self.reason = reason
        }
    }

    /// What a check found.
    public struct Report: Sendable {
        public var projection: String
        /// The live projection's position: the events folded again are those up to it.
        public var position: Int64
        /// The accounts folded again and compared, in the order they were chosen.
        public var accounts: [String]
        public var skipped: [Skipped]
        /// Events folded again.
        public var events: Int
        public var differences: [AccountDifference]
        public var seconds: Double

        /// The accounts whose rows differ, in the order they were chosen.
        public var drifted: [String] {
            let found = Set(differences.map(\.account))
            return accounts.filter(found.contains)
        }
    }

    /// A check that did not run: `code` is stable (`rebuild_running`, `not_created`,
    /// `version_mismatch`), `message` says why in words.
    public struct NotChecked: Error, Sendable, CustomStringConvertible {
        public var code: String
        public var message: String
        public var description: String { message }
    }

    /// Checks a sample of `projection`'s accounts: every account of `recheck` (those a
    /// previous check found drifted, until they are found clean), then up to `settings.size`
    /// more. `connection` must not be in a transaction; it is left out of one.
    public static func check(_ projection: any AccountSampling, recheck: [String] = [], settings: Settings = Settings(),
                             on connection: PostgresConnection) throws -> Report {
        let started = DispatchTime.now().uptimeNanoseconds
        // Held for the session, taken before the snapshot, so that no swap commits between
        // the two; a rebuild under way is not waited for.
        guard try connection.query("SELECT pg_try_advisory_lock($1, $2)", [AdvisoryLock.namespace, AdvisoryLock.rebuild])[0].bool(0) == true else {
            throw NotChecked(code: "rebuild_running", message: "a rebuild of the projections is under way (ledger replay)")
        }
        defer { _ = try? connection.query("SELECT pg_advisory_unlock($1, $2)", [AdvisoryLock.namespace, AdvisoryLock.rebuild]) }
        try connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ")
        defer { if connection.isOpen { _ = try? connection.query("ROLLBACK") } }
        try connection.query("SET LOCAL statement_timeout TO '300s'")
        guard let live = try ProjectionSchema.progress(projection.schema, on: connection) else {
            throw NotChecked(code: "not_created", message: "projection \(projection.name) is not created yet")
        }
        guard live.version == projection.version else {
            throw NotChecked(code: "version_mismatch",
                             message: "projection \(projection.name) was built by version \(live.version) of its fold and the code is at \(projection.version): the projector rebuilds it first")
        }
        let position = live.position

        // The sample: the accounts rechecked, then the recently changed, then at random.
        var chosen: [String] = []
        var seen = Set<String>()
        func add(_ account: String) { if projection.isAccount(account), seen.insert(account).inserted { chosen.append(account) } }
        recheck.forEach(add)
        let rechecked = chosen.count
        let recent = (settings.size + 1) / 2
        for account in try projection.recentAccounts(through: position, window: settings.recentWindow, limit: settings.size,
                                                     live: projection.schema, on: connection) where chosen.count < rechecked + recent {
            add(account)
        }
        for account in try projection.randomAccounts(limit: settings.size + recent, live: projection.schema, on: connection)
        where chosen.count < rechecked + settings.size {
            add(account)
        }

        // Each account's streams; those whose history the live log does not hold in full
        // (archived by `ledger archive`) or that would take the check past its bound are left out.
        var streams: [String: [String]] = [:]
        for account in chosen { streams[account] = try projection.streams(of: account, live: projection.schema, on: connection) }
        let all = Array(Set(streams.values.joined())).sorted()
        let incomplete = try LogReader(connection).firstLivePosition() > 1 ? try archivedStreams(all, on: connection) : []
        let sizes = try streamSizes(all, on: connection)
        var skipped: [Skipped] = []
        var admitted: [String] = []
        var admittedStreams = Set<String>()
        var budget: Int64 = 0
        for account in chosen {
            let own = streams[account] ?? []
            if let archived = own.first(where: incomplete.contains) {
                skipped.append(Skipped(account: account, reason: "the first events of stream \(archived) are archived: the live log cannot fold it"))
                continue
            }
            let added = own.filter { !admittedStreams.contains($0) }.reduce(Int64(0)) { $0 + (sizes[$1] ?? 0) }
            guard budget + added <= settings.maximumEvents else {
                skipped.append(Skipped(account: account, reason: "its streams hold \(own.reduce(Int64(0)) { $0 + (sizes[$1] ?? 0) }) events, more than the check folds at once (\(settings.maximumEvents))"))
                continue
            }
            budget += added
            admitted.append(account)
            admittedStreams.formUnion(own)
        }

        let setAside = try SetAsides.load(on: connection).forProjection(projection.name)
        var events = 0
        var differences: [AccountDifference] = []
        if !admitted.isEmpty {
            try connection.query("SAVEPOINT drift_sample")
            do {
                events = try fold(projection, streams: admittedStreams.sorted(), through: position, setAside: setAside,
                                  batchSize: settings.batchSize, on: connection)
                differences = try projection.sampleDifferences(accounts: admitted, sample: "pg_temp", live: projection.schema, on: connection)
                try connection.query("ROLLBACK TO SAVEPOINT drift_sample")
            } catch let error as PostgresError where error.code == .connectionLost || !connection.isOpen {
                throw error
            } catch let error as NotChecked {
                throw error
            } catch {
                // Folded together, one account's streams stopped the fold: each alone, so
                // that the others are still compared and the one that cannot be is named.
                try connection.query("ROLLBACK TO SAVEPOINT drift_sample")
                events = 0
                var alone: [String] = []
                for account in admitted {
                    do {
                        events += try fold(projection, streams: streams[account] ?? [], through: position, setAside: setAside,
                                           batchSize: settings.batchSize, on: connection)
                        differences += try projection.sampleDifferences(accounts: [account], sample: "pg_temp", live: projection.schema,
                                                                        on: connection)
                        alone.append(account)
                    } catch let error as PostgresError where error.code == .connectionLost || !connection.isOpen {
                        throw error
                    } catch {
                        skipped.append(Skipped(account: account, reason: "its streams cannot be folded apart from the log: \(error)"))
                    }
                    try connection.query("ROLLBACK TO SAVEPOINT drift_sample")
                }
                admitted = alone
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return Report(projection: projection.name, position: position, accounts: admitted, skipped: skipped, events: events,
                      differences: differences, seconds: seconds)
    }

    /// Folds the events of `streams` up to `position` into the projection's tables, created
    /// empty in the session's temporary schema; the events folded. The caller rolls back.
    static func fold(_ projection: any AccountSampling, streams: [String], through position: Int64, setAside: [Int64: SetAsides.Entry],
                     batchSize: Int, on connection: PostgresConnection) throws -> Int {
        // First in the path, `pg_temp` is where unqualified tables are created, and found.
        try connection.query("SET LOCAL search_path TO pg_temp, public")
        for statement in projection.tablesSQL + projection.deferredIndexesSQL { try connection.query(statement) }
        let reader = LogReader(connection)
        var after: Int64 = 0
        var folded = 0
        while true {
            var events = try reader.read(streams: streams, after: after, limit: batchSize)
            guard let last = events.last else { break }
            after = last.position
            let done = last.position >= position
            events.removeAll { $0.position > position || setAside[$0.position] != nil }
            if !events.isEmpty {
                try ProjectionContext.folding(on: connection) { try projection.apply(events[...], in: $0) }
                folded += events.count
            }
            if done { break }
        }
        try connection.query("SET LOCAL search_path TO public")
        return folded
    }

    /// Those of `streams` that have events and whose first one is not in the live log.
    static func archivedStreams(_ streams: [String], on connection: PostgresConnection) throws -> Set<String> {
        guard !streams.isEmpty else { return [] }
        return Set(try connection.query("""
            SELECT s FROM unnest($1::text[]) AS s
            WHERE EXISTS (SELECT 1 FROM event_streams es WHERE es.stream = s)
              AND NOT EXISTS (SELECT 1 FROM events e WHERE e.stream = s AND e.stream_version = 1)
            """, [PostgresTextArray(streams)]).rows.map { try $0.requireString(0) })
    }

    /// Each stream's number of events (its version: events past the position too, which
    /// only makes the bound a little stricter).
    static func streamSizes(_ streams: [String], on connection: PostgresConnection) throws -> [String: Int64] {
        guard !streams.isEmpty else { return [:] }
        var sizes: [String: Int64] = [:]
        for row in try connection.query("SELECT stream, version FROM event_streams WHERE stream = ANY($1::text[])",
                                        [PostgresTextArray(streams)]).rows {
            sizes[try row.requireString(0)] = try row.requireInt64(1)
        }
        return sizes
    }
}
