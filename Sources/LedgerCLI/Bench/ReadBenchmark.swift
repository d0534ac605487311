import Dispatch
import EventStore
import Foundation
import HTTP
import LedgerJSON
import Postgres
import Projections
import Synchronization
import Threads

/// `ledger bench read`: the projector's throughput over a large log, then the billing
/// reads over real HTTP against `/healthz`, the ceiling of the same server, client and
/// machine in the same run.
enum ReadBenchmark {
    struct Options {
        var events = 1_000_000
        var projects = 1_000
        var requests = 2_000
        var concurrency = 4
        var reproject = false
    }

    static let pageSize = 50

    static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["events", "projects", "requests", "concurrency"], boolean: ["reproject"])
        var options = Options()
        options.events = try args.int("events", default: options.events)
        options.projects = try args.int("projects", default: options.projects)
        options.requests = try args.int("requests", default: options.requests)
        options.concurrency = try args.int("concurrency", default: options.concurrency)
        options.reproject = args.flag("reproject")
        guard options.projects > 0, options.requests > 0, options.concurrency > 0 else {
            throw UsageError("--projects, --requests and --concurrency must be positive")
        }
        guard options.events >= BenchReadLog.minimumEvents(projects: options.projects) else {
            throw UsageError("--events must be at least 5 per project (\(BenchReadLog.minimumEvents(projects: options.projects)) for \(options.projects) projects)")
        }
        let url = try environment.databaseURL()
        let connection = try PostgresConnection(conninfo: url)
        guard try Migrator(migrations: try environment.migrations()).status(on: connection).isCurrent else {
            throw UsageError("the database has pending migrations: run `ledger migrate` first")
        }

        let log = BenchReadLog(events: options.events, projects: options.projects)
        BenchOutput.line("log: \(options.events) events over \(options.projects) self-paying projects, about \(log.entriesPerProject) journal entries each")
        try log.reuseOrBuild(url: url, connection: connection)

        if options.reproject {
            // The projector recreates missing schemas and folds the whole log again.
            for projection in AllProjections.all {
                try connection.query("DROP SCHEMA IF EXISTS \(connection.quoteIdentifier(projection.schema)) CASCADE")
            }
            BenchOutput.line("projector: dropped the projections (--reproject)")
        }
        try measureProjector(url: url, connection: connection)

        let service = try BenchService(url: url, environment: environment)
        defer { service.shutdown() }
        try measureReads(service: service, log: log, options: options)
        return 0
    }

    /// Runs the projector until the billing projection has reached the head and prints its
    /// throughput.
    private static func measureProjector(url: String, connection: PostgresConnection) throws {
        let head = try EventStore.headPosition(on: connection)
        let pool = PostgresPool(conninfo: url, maximumConnections: 2)
        let projector = BenchProjector(url: url)
        defer { projector.shutdown() }
        let progress = try projector.wait(for: head, pool: pool)
        // Stopped, so that the reads below compete with nothing but themselves.
        projector.shutdown()
        if progress.to > progress.from {
            BenchOutput.line(String(format: "projector: %lld events (positions %lld to %lld) in %.1f s: %.0f events/s (every projection, batches of 500)",
                         progress.to - progress.from, progress.from + 1, progress.to, progress.seconds, progress.eventsPerSecond))
        } else {
            BenchOutput.line("projector: the projections were already at the head (\(head)); not measured (--reproject folds the log again)")
        }
    }

    private static func measureReads(service: BenchService, log: BenchReadLog, options: Options) throws {
        let port = service.port
        let c = options.concurrency
        let n = options.requests
        let warmup = min(n / 10, 200)
        let accounts = log.accounts
        @Sendable func read(_ project: BenchReadLog.Project, _ path: String) -> HTTPLoad.Request {
            HTTPLoad.Request(path: "/v1/projects/\(project.id)/\(path)", headers: [("Authorization", "Bearer " + project.key)])
        }
        BenchOutput.line("http: \(c) client threads, \(n) requests per measurement after \(warmup) unmeasured, \(service.threads) server threads")

        let healthz = try HTTPLoad.run(port: port, concurrency: c, count: n, warmup: warmup) { _ in HTTPLoad.Request(path: "/healthz") }
        BenchOutput.line(healthz.line("healthz (ceiling)"))
        func report(_ label: String, _ summary: LatencySummary) {
            BenchOutput.line(summary.line(label) + String(format: "; %.2f of the healthz rate", summary.perSecond / healthz.perSecond))
        }

        let first = try HTTPLoad.run(port: port, concurrency: c, count: n, warmup: warmup) { _ in
            read(accounts.randomElement()!, "journal?limit=\(pageSize)")
        }
        report("journal first page", first)

        let (lastCursors, pages) = try collectLastCursors(port: port, concurrency: c, accounts: accounts)
        BenchOutput.line("journal: followed the cursors of \(accounts.count) projects, \(pages) pages of \(pageSize) in all")
        let last = try HTTPLoad.run(port: port, concurrency: c, count: n, warmup: warmup) { _ in
            let i = Int.random(in: 0..<accounts.count)
            return read(accounts[i], "journal?limit=\(pageSize)" + (lastCursors[i].map { "&cursor=" + $0 } ?? ""))
        }
        report("journal last page", last)

        let balance = try HTTPLoad.run(port: port, concurrency: c, count: n, warmup: warmup) { _ in
            read(accounts.randomElement()!, "balance")
        }
        report("balance", balance)

        BenchOutput.line(String(format: "journal page p99: first %.2f ms, last %.2f ms (target < 5 ms); healthz p99 %.2f ms",
                     first.p99, last.p99, healthz.p99))
    }

    /// Follows every project's journal to its end and returns, per project, the cursor
    /// that asks for its last page (nil when the first page is the last), and the number
    /// of pages read.
    private static func collectLastCursors(port: Int, concurrency: Int,
                                           accounts: [BenchReadLog.Project]) throws -> ([String?], Int) {
        let next = Atomic<Int>(0)
        let pages = Atomic<Int>(0)
        let cursors = Mutex<[String?]>(Array(repeating: nil, count: accounts.count))
        let failure = Mutex<(any Error)?>(nil)
        ThreadGroup.run(concurrency, name: "bench-cursors") { _ in
            do {
                let client = try HTTPClient(host: "127.0.0.1", port: port, timeout: 60)
                while failure.withLock({ $0 == nil }) {
                    let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard i < accounts.count else { return }
                    let project = accounts[i]
                    var cursor: String?
                    while true {
                        let path = "/v1/projects/\(project.id)/journal?limit=\(pageSize)" + (cursor.map { "&cursor=" + $0 } ?? "")
                        let response = try client.send(method: "GET", path: path, headers: [("Authorization", "Bearer " + project.key)])
                        let request = HTTPLoad.Request(path: path)
                        try HTTPLoad.expectOK(request, response)
                        pages.add(1, ordering: .relaxed)
                        let page = try JSONValue.parse(response.body)
                        guard let more = page["has_more"]?.boolValue else {
                            throw BenchmarkFailure(.unexpectedResponse, "GET \(path): a journal page without has_more")
                        }
                        if !more { break }
                        guard let resume = page["next_cursor"]?.stringValue else {
                            throw BenchmarkFailure(.unexpectedResponse, "GET \(path): has_more without next_cursor")
                        }
                        cursor = resume
                    }
                    cursors.withLock { $0[i] = cursor }
                }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return (cursors.withLock { $0 }, pages.load(ordering: .relaxed))
    }
}
