import BenchHTTP
import Dispatch
import EventStore
import Foundation
import HTTP
import LedgerCLI
import LedgerDomain
import LedgerJSON
import Postgres
import Projections
import Synchronization
import Threads

/// `ledger-bench read`: the projector's throughput over a large log, then the billing
/// reads over real HTTP against `/healthz`, the ceiling of the same server, client and
/// machine, and each journal page against its own statement run straight through libpq,
/// in the same run.
enum ReadBenchmark {
    struct Options {
        var events = 1_000_000
        var projects = 1_000
        var requests = 2_000
        var concurrency = 4
        /// Each journal page is measured in this many alternating rounds (raw statement,
        /// then HTTP), so that a moment of noise on a shared machine moves one round's
        /// ratio, not the answer: the ratio reported is the median round's.
        var rounds = 5
        var reproject = false
        /// With N > 0: the journal and catalog reads with 0 to N local standbys instead.
        var replicas = 0
    }

    static let pageSize = 50

    static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["events", "projects", "requests", "concurrency", "rounds", "replicas"], boolean: ["reproject"])
        var options = Options()
        options.events = try args.int("events", default: options.events)
        options.projects = try args.int("projects", default: options.projects)
        options.requests = try args.int("requests", default: options.requests)
        options.concurrency = try args.int("concurrency", default: options.concurrency)
        options.rounds = try args.int("rounds", default: options.rounds)
        options.reproject = args.flag("reproject")
        options.replicas = try args.int("replicas", default: 0)
        guard (0...4).contains(options.replicas) else { throw UsageError("--replicas is 0 to 4") }
        guard options.projects > 0, options.requests > 0, options.concurrency > 0, options.rounds > 0 else {
            throw UsageError("--projects, --requests, --concurrency and --rounds must be positive")
        }
        guard options.events >= BenchReadLog.minimumEvents(projects: options.projects) else {
            throw UsageError("--events must be at least 5 per project (\(BenchReadLog.minimumEvents(projects: options.projects)) for \(options.projects) projects)")
        }
        let url = try BenchDatabase.prepare(BenchReadLog.databaseName(events: options.events, projects: options.projects, extras: false), reuse: true, environment: environment)
        let connection = try PostgresConnection(conninfo: url)

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
        if options.replicas > 0 {
            try ReplicaReadBenchmark.run(replicas: options.replicas, url: url, log: log, requests: options.requests,
                                         concurrency: options.concurrency, environment: environment)
            return 0
        }

        let service = try BenchService(url: try BenchDatabase.apiLogin(on: url), environment: environment)
        defer { service.shutdown() }
        try measureReads(service: service, url: url, log: log, options: options)
        return 0
    }

    /// Runs the projector until the billing projection has reached the head and prints its
    /// throughput.
    static func measureProjector(url: String, connection: PostgresConnection) throws {
        let head = try LogReader(connection).headPosition()
        let connections = PostgresPool(conninfo: url, maximumConnections: 2)
        let projector = BenchProjector(url: url)
        defer { projector.shutdown() }
        let progress = try projector.wait(for: head, connections: connections)
        // Stopped, so that the reads below compete with nothing but themselves.
        projector.shutdown()
        if progress.to > progress.from {
            BenchOutput.line(String(format: "projector: %lld events (positions %lld to %lld) in %.1f s: %.0f events/s (every projection, batches of 5000)",
                         progress.to - progress.from, progress.from + 1, progress.to, progress.seconds, progress.eventsPerSecond))
        } else {
            BenchOutput.line("projector: the projections were already at the head (\(head)); not measured (--reproject folds the log again)")
        }
    }

    private static func measureReads(service: BenchService, url: String, log: BenchReadLog, options: Options) throws {
        let port = service.port
        let c = options.concurrency
        let n = options.requests
        let warmup = min(n / 10, 200)
        let accounts = log.accounts
        @Sendable func read(_ project: BenchReadLog.Project, _ path: String) -> HTTPLoad.Request {
            HTTPLoad.Request(path: "/v1/projects/\(project.id)/\(path)", headers: [("Authorization", "Bearer " + project.key)])
        }
        BenchOutput.line("http: \(c) client threads, \(n) requests per measurement after \(warmup) unmeasured, \(service.threads) server threads; "
                         + "journal pages in \(options.rounds) alternating rounds of raw statement and HTTP")

        let healthz = try HTTPLoad.run(port: port, concurrency: c, count: n, warmup: warmup) { _ in HTTPLoad.Request(path: "/healthz") }
        BenchOutput.line(healthz.line("healthz (ceiling)"))

        let (cursors, pages) = try collectLastCursors(port: port, concurrency: c, accounts: accounts)
        BenchOutput.line("journal: followed the cursors of \(accounts.count) projects, \(pages) pages of \(pageSize) in all")
        let starts = try lastPageStarts(url: url, concurrency: c, accounts: accounts)

        // The same page over HTTP and as the read model's statement straight through libpq.
        // "Last" is the deepest full page (the journal's last 50 entries as a client's
        // cursors reach them), so that first and last differ in depth only; the tail page
        // a client ends on holds what is left over and is measured apart.
        @Sendable func firstPage(_ i: Int) -> HTTPLoad.Request { read(accounts[i], "journal?limit=\(pageSize)") }
        @Sendable func page(after cursor: String?, _ i: Int) -> HTTPLoad.Request {
            read(accounts[i], "journal?limit=\(pageSize)" + (cursor.map { "&cursor=" + $0 } ?? ""))
        }
        @Sendable func lastPage(_ i: Int) -> HTTPLoad.Request { page(after: cursors[i].lastFull, i) }
        @Sendable func tailPage(_ i: Int) -> HTTPLoad.Request { page(after: cursors[i].tail, i) }
        @Sendable func statement(_ i: Int, after: JournalEntryID?) -> RawStatementLoad.Statement {
            BillingReadModel.journalPageStatement(.project(accounts[i].id), after: after, limit: pageSize)
        }
        func measure(_ label: String, clients: Int, http: @escaping @Sendable (Int) -> HTTPLoad.Request,
                     raw: @escaping @Sendable (Int) -> RawStatementLoad.Statement) throws -> Comparison {
            var rounds: [(http: LatencySummary, raw: LatencySummary)] = []
            for _ in 0..<options.rounds {
                // Both series of a round draw the same accounts in the same order.
                let picks = (0..<(n + warmup)).map { _ in Int.random(in: 0..<accounts.count) }
                let direct = try RawStatementLoad.run(conninfo: url, concurrency: clients, count: n, warmup: warmup) { raw(picks[$0]) }
                let served = try HTTPLoad.run(port: port, concurrency: clients, count: n, warmup: warmup) { http(picks[$0]) }
                rounds.append((served, direct))
            }
            let comparison = Comparison(rounds: rounds)
            let who = "\(label), \(clients) client\(clients == 1 ? "" : "s")"
            BenchOutput.line(comparison.raw.line("\(who), raw statement through libpq"))
            BenchOutput.line(comparison.http.line("\(who), HTTP")
                             + String(format: "; %.2f of the raw statement's rate (median round; rounds ", comparison.ratio)
                             + comparison.ratios.map { String(format: "%.2f", $0) }.joined(separator: " ")
                             + String(format: "), %.2f of the healthz rate", comparison.http.perSecond / healthz.perSecond))
            return comparison
        }
        let first = try measure("journal first page", clients: c, http: firstPage, raw: { statement($0, after: nil) })
        let last = try measure("journal last full page", clients: c, http: lastPage, raw: { statement($0, after: starts[$0].lastFull) })
        let tailEntries = log.entriesPerProject % pageSize == 0 ? pageSize : log.entriesPerProject % pageSize
        let tail = try measure("journal tail page (about \(tailEntries) entries)", clients: c, http: tailPage,
                               raw: { statement($0, after: starts[$0].tail) })
        let firstAlone = try measure("journal first page", clients: 1, http: firstPage, raw: { statement($0, after: nil) })
        let lastAlone = try measure("journal last full page", clients: 1, http: lastPage, raw: { statement($0, after: starts[$0].lastFull) })

        let balance = try HTTPLoad.run(port: port, concurrency: c, count: n, warmup: warmup) { _ in
            read(accounts.randomElement()!, "balance")
        }
        BenchOutput.line(balance.line("balance") + String(format: "; %.2f of the healthz rate", balance.perSecond / healthz.perSecond))

        BenchOutput.line(String(format: "journal page p99 with 1 client: first %.2f ms, last %.2f ms; "
                                + "HTTP rate / raw statement rate with %d clients: first %.2f, last %.2f; tail page %.2f",
                                firstAlone.http.p99, lastAlone.http.p99, c,
                                first.ratio, last.ratio, tail.ratio))
    }

    /// One page measured in rounds: every round's requests together, and the median of
    /// the rounds' ratios of HTTP rate to raw statement rate.
    struct Comparison {
        var http: LatencySummary
        var raw: LatencySummary
        var ratios: [Double]

        init(rounds: [(http: LatencySummary, raw: LatencySummary)]) {
            http = LatencySummary(merging: rounds.map(\.http))
            raw = LatencySummary(merging: rounds.map(\.raw))
            ratios = rounds.map { $0.http.perSecond / $0.raw.perSecond }
        }

        var ratio: Double { Percentile.median(ratios) }
    }

    /// Where a journal's last pages start: the deepest full page, and the tail page a
    /// client's cursors end on (the same page when the journal divides into full pages).
    /// Nil stands for the first page.
    struct PageStarts<Start: Sendable>: Sendable {
        var lastFull: Start?
        var tail: Start?

        /// Follows one journal: `next(start)` reads the page at `start` and returns its
        /// entry count and the start of the page after it, nil at the end.
        static func follow(pageSize: Int, _ next: (Start?) throws -> (entries: Int, next: Start?)) rethrows -> PageStarts {
            var previous: Start?
            var current: Start?
            while true {
                let page = try next(current)
                guard let following = page.next else {
                    return PageStarts(lastFull: page.entries == pageSize ? current : previous, tail: current)
                }
                previous = current
                current = following
            }
        }
    }

    /// Per project, the entries its last pages start after, found by following the pages
    /// through the read model: the raw statement's parameters for the pages the HTTP
    /// cursors ask for.
    private static func lastPageStarts(url: String, concurrency: Int,
                                       accounts: [BenchReadLog.Project]) throws -> [PageStarts<JournalEntryID>] {
        let model = BillingReadModel(connections: PostgresPool(conninfo: url, maximumConnections: concurrency))
        let next = Atomic<Int>(0)
        let starts = Mutex<[PageStarts<JournalEntryID>]>(Array(repeating: PageStarts(), count: accounts.count))
        let failure = Mutex<(any Error)?>(nil)
        ThreadGroup.run(concurrency, name: "bench-pages") { _ in
            do {
                while failure.withLock({ $0 == nil }) {
                    let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard i < accounts.count else { return }
                    let found = try PageStarts<JournalEntryID>.follow(pageSize: pageSize) { after in
                        guard let page = try model.journalPage(.project(accounts[i].id), after: after, limit: pageSize) else {
                            throw BenchmarkFailure(.unexpectedResponse, "project \(accounts[i].id) has no journal")
                        }
                        return (page.count, page.hasMore && page.count > 0 ? page.id(at: page.count - 1) : nil)
                    }
                    starts.withLock { $0[i] = found }
                }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return starts.withLock { $0 }
    }

    /// Follows every project's journal to its end over HTTP and returns, per project, the
    /// cursors that ask for its last pages, and the number of pages read.
    private static func collectLastCursors(port: Int, concurrency: Int,
                                           accounts: [BenchReadLog.Project]) throws -> ([PageStarts<String>], Int) {
        let next = Atomic<Int>(0)
        let pages = Atomic<Int>(0)
        let cursors = Mutex<[PageStarts<String>]>(Array(repeating: PageStarts(), count: accounts.count))
        let failure = Mutex<(any Error)?>(nil)
        ThreadGroup.run(concurrency, name: "bench-cursors") { _ in
            do {
                let client = try HTTPClient(host: "127.0.0.1", port: port, timeout: 60)
                while failure.withLock({ $0 == nil }) {
                    let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard i < accounts.count else { return }
                    let project = accounts[i]
                    let found = try PageStarts<String>.follow(pageSize: pageSize) { cursor in
                        let path = "/v1/projects/\(project.id)/journal?limit=\(pageSize)" + (cursor.map { "&cursor=" + $0 } ?? "")
                        let response = try client.send(method: "GET", path: path, headers: [("Authorization", "Bearer " + project.key)])
                        try HTTPLoad.expectOK(HTTPLoad.Request(path: path), response)
                        pages.add(1, ordering: .relaxed)
                        let page = try JSONValue.parse(response.body)
                        guard let more = page["has_more"]?.boolValue, let entries = page["entries"]?.arrayValue else {
                            throw BenchmarkFailure(.unexpectedResponse, "GET \(path): a journal page without has_more or entries")
                        }
                        guard more else { return (entries.count, nil) }
                        guard let resume = page["next_cursor"]?.stringValue else {
                            throw BenchmarkFailure(.unexpectedResponse, "GET \(path): has_more without next_cursor")
                        }
                        return (entries.count, resume)
                    }
                    cursors.withLock { $0[i] = found }
                }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return (cursors.withLock { $0 }, pages.load(ordering: .relaxed))
    }
}
