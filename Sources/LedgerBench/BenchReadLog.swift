import Crypto
import Dispatch
import EventStore
import Foundation
import LedgerCLI
import LedgerDomain
import LedgerJSON
import Postgres
import Synchronization

/// The log `ledger-bench read` reads: `events` events over `projects` self-paying
/// projects. First, per project, `project.created`, `plan.set` and a `key.issued` for a
/// key derived from the project's id; then rounds that give every project one event each,
/// alternating `credit.posted` (one journal entry) and `usage.recorded`, so that each
/// project's journal has about `events / projects / 2` entries spread over the whole log,
/// as a long-lived account's would be.
///
/// Everything is deterministic, and each append of `chunkSize` events carries an
/// idempotency key, so an interrupted build resumes where it stopped and a finished one is
/// recognised by its marker event and reused.
struct BenchReadLog: Sendable {
    /// A project of the log and the secret key that reads it.
    struct Project: Sendable {
        var id: String
        var key: String
    }

    let events: Int
    let projects: Int
    /// Every tenth filler event is one of the other projections' (`BenchReadLog+Extras`):
    /// organizations, App Store subscriptions and the IAP catalog (`ledger-bench replay`).
    var extras = false
    static let chunkSize = 1_000
    /// Bumped whenever the events this type generates change: it is part of the project
    /// ids, the chunks' idempotency keys and the marker, so that a log of an older layout
    /// is neither reused nor mistaken for a conflicting retry.
    static let layout = 1
    static let markerStream = "bench-read"
    static let markerType = "bench.read_log_built"
    /// Business time of the projects' creation; usage is spread over the 30 days after it.
    static let epoch = Timestamp(iso8601: "2026-01-01T00:00:00Z")!

    /// The database (`BenchDatabase`) that holds the log of this shape: made once, reused
    /// by every benchmark that reads a log of the same size, layout and extras.
    static func databaseName(events: Int, projects: Int, extras: Bool) -> String {
        "ledger_bench_log\(layout)_\(events)_\(projects)\(extras ? "_extras" : "")"
    }

    /// Three setup events per project, then at least one credit and one usage event each.
    static func minimumEvents(projects: Int) -> Int { projects * 5 }

    private var setupEvents: Int { projects * 3 }
    private var fillerEvents: Int { events - setupEvents }

    /// Ids carry the log's size, so that logs of different sizes can share a database.
    func projectID(_ index: Int) -> String { "br\(Self.layout)\(extras ? "x" : "")-\(events)-\(projects)-\(index)" }

    /// The secret of a project's key, derived from its id so that a reused log's keys are known.
    static func secret(of project: String) -> String {
        "sk_bench_" + Hex.encode(SHA256.hash(Array("ledger bench read key \(project)".utf8)).prefix(16))
    }

    var accounts: [Project] {
        (0..<projects).map { Project(id: projectID($0), key: Self.secret(of: projectID($0))) }
    }

    /// Journal entries each project gets (credits: the even rounds).
    var entriesPerProject: Int {
        let rounds = fillerEvents / projects
        return (rounds + 1) / 2
    }

    /// The position of the marker a finished build of this size appended, if any.
    func marker(on connection: PostgresConnection) throws -> Int64? {
        let rows = try connection.query("""
            SELECT position FROM events WHERE stream = $1 AND type = $2 AND data @> $3::jsonb ORDER BY position LIMIT 1
            """, [Self.markerStream, Self.markerType, markerData.canonicalText])
        return rows.rowCount == 0 ? nil : try rows[0].requireInt64(0)
    }

    private var keyPrefix: String { "bench-read:\(Self.layout)\(extras ? "x" : ""):\(events):\(projects)" }

    private var markerData: JSONValue {
        ["layout": .integer(Int64(Self.layout)), "events": .integer(Int64(events)), "projects": .integer(Int64(projects)),
         "extras": .bool(extras)]
    }

    /// Reuses the log a previous run built (found by its marker), or builds it, saying which.
    func reuseOrBuild(url: String, connection: PostgresConnection) throws {
        if let marker = try marker(on: connection) {
            BenchOutput.line("log: reusing the log a previous run built (marker at position \(marker))")
            return
        }
        let store = EventStore(conninfo: url)
        defer { store.close() }
        let seconds = try build(store: store)
        BenchOutput.line(String(format: "log: built in %.1f s, %.0f events/s through the append path", seconds, Double(events) / seconds))
    }

    /// Appends the log (what a previous, interrupted build appended is recognised by the
    /// chunks' idempotency keys and skipped), then the marker. Up to `window` appends are in
    /// flight at once so that the appender always has the next one queued.
    /// Returns the seconds it took.
    func build(store: EventStore, window: Int = 8) throws -> Double {
        let metadata = EventMetadata(actor: Actor(.system, "bench"), reason: "ledger bench read builds its log")
        let chunks = (events + Self.chunkSize - 1) / Self.chunkSize
        let setupChunks = (setupEvents + Self.chunkSize - 1) / Self.chunkSize
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

        // The projects must be in the log before their usage: the projection refuses usage of
        // a project it does not know. So the setup chunks are appended and waited for first.
        for k in 0..<setupChunks {
            do {
                _ = try store.append(try chunk(k, metadata: metadata))
            } catch {
                throw BenchmarkFailure(.logBuildFailed, "append of chunk \(k) failed: \(error)")
            }
        }
        let slots = DispatchSemaphore(value: window)
        let group = DispatchGroup()
        let failure = Mutex<String?>(nil)
        let appended = Atomic<Int>(0)
        var reported = elapsed()
        for k in setupChunks..<chunks {
            if failure.withLock({ $0 != nil }) { break }
            let request = try chunk(k, metadata: metadata)
            slots.wait()
            group.enter()
            store.submit(request) { result in
                switch result {
                case .success(let r): appended.add(r.events.count, ordering: .relaxed)
                case .failure(let error): failure.withLock { if $0 == nil { $0 = "append of chunk \(k) failed: \(error)" } }
                }
                slots.signal()
                group.leave()
            }
            if elapsed() - reported >= 5 {
                reported = elapsed()
                let done = appended.load(ordering: .relaxed) + setupEvents
                BenchOutput.line(String(format: "log: %d of %d events appended, %.0f events/s", done, events, Double(done) / reported))
            }
        }
        group.wait()
        if let message = failure.withLock({ $0 }) { throw BenchmarkFailure(.logBuildFailed, message) }
        do {
            _ = try store.append(AppendRequest(EventToAppend(stream: Self.markerStream, type: Self.markerType, data: markerData,
                                                             metadata: metadata),
                                               idempotencyKey: "\(keyPrefix):built"))
        } catch {
            throw BenchmarkFailure(.logBuildFailed, "append of the marker failed: \(error)")
        }
        return elapsed()
    }

    /// The k-th append: events `k * chunkSize ..< (k + 1) * chunkSize` of the log.
    private func chunk(_ k: Int, metadata: EventMetadata) throws -> AppendRequest {
        let range = (k * Self.chunkSize)..<min((k + 1) * Self.chunkSize, events)
        return AppendRequest(events: try range.map { try event($0, metadata: metadata) },
                             idempotencyKey: "\(keyPrefix):\(k)")
    }

    /// The e-th event of the log.
    private func event(_ e: Int, metadata: EventMetadata) throws -> EventToAppend {
        let encoder = JSONValueEncoder()
        if e < setupEvents {
            let id = projectID(e / 3)
            switch e % 3 {
            case 0:
                return EventToAppend(stream: "project-" + id, type: ProjectCreated.type,
                                     data: try encoder.encode(ProjectCreated(projectID: id, name: id, funding: .selfPaying)),
                                     metadata: metadata, occurredAt: Self.epoch)
            case 1:
                return EventToAppend(stream: "project-" + id, type: PlanSet.type,
                                     data: try encoder.encode(PlanSet(pool: .project(id), plan: "bench", allowanceStorageBytes: 1 << 30)),
                                     metadata: metadata)
            default:
                let secret = Self.secret(of: id)
                let issued = KeyIssued(keyID: id, principal: KeyPrincipal(kind: .project, id: id),
                                       sha256: Hex.encode(SHA256.hash(Array(secret.utf8))), prefix: String(secret.prefix(12)))
                return EventToAppend(stream: AccountsDecider.keyStream(id), type: KeyIssued.type, data: try encoder.encode(issued), metadata: metadata)
            }
        }
        let j = e - setupEvents
        if extras && j % 10 == 9 { return try extra(j / 10, metadata: metadata) }
        let id = projectID(j % projects)
        let round = j / projects
        if round % 2 == 0 {
            let sources: [CreditSource] = [.plan, .purchase, .grant]
            let credit = CreditPosted(pool: .project(id), source: sources[(round / 2) % 3], amount: Millicredits(Int64(1_000 + j % 9_000)),
                                      description: "bench credit \(round / 2)")
            return EventToAppend(stream: "project-" + id, type: CreditPosted.type, data: try encoder.encode(credit), metadata: metadata)
        }
        // Business times in log order within one month: the balance folds every month not yet
        // closed (three queries each), and a live account has one or two open, not ten.
        let offset = Int64(Double(j) / Double(max(fillerEvents, 1)) * 30 * 86_400_000_000)
        let usage = UsageRecorded(usageID: "\(id)-u\(j)", projectID: id,
                                  meter: (round / 2) % 4 == 3 ? .storageBytes : .apiRequests, quantity: Int64(1 + j % 500))
        return EventToAppend(stream: "usage-" + id, type: UsageRecorded.type, data: try encoder.encode(usage), metadata: metadata,
                             occurredAt: Timestamp(microseconds: Self.epoch.microseconds + offset))
    }
}
