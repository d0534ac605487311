import API
import BenchHTTP
import Crypto
import EventStore
import Foundation
import HTTP
import LedgerCLI
import LedgerDomain
import LedgerServices
import Observability
import Postgres
import Projections

/// `ledger-bench console`: how long each console page takes on the read benchmark's log
/// (1,000,000 events by default), signed in, one client at a time, beside the console's
/// sign-in page served by the same server (its ceiling: no database read but the HMAC).
enum ConsoleBenchmark {
    static let usage = """
        usage: ledger-bench console [--events N] [--projects P] [--requests R]

        Builds or reuses the log of `ledger-bench read` (N events, default 1000000, over P
        projects, default 1000), brings the projections to its head, adds an operator of
        role operator, serves the console in this process on a free port, signs in, and
        times R requests (default 200, after 20 unmeasured) of each page from one client:
        search, a project's timeline, its journal, its balance and usage, an event, the
        corrections, the chain (without verifying), the projections, the catalog, an app's
        page (with and without a user's purchases), a search for a user id, an
        organization and the rebuild page. Ends with
        `console: slowest page p99 X ms at N events`.
        """

    static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["events", "projects", "requests"])
        let events = try args.int("events", default: 1_000_000), projects = try args.int("projects", default: 1_000)
        let requests = try args.int("requests", default: 200)
        guard requests > 0, projects > 0, events >= BenchReadLog.minimumEvents(projects: projects) else {
            throw UsageError("--requests and --projects must be positive, and --events at least 5 per project")
        }
        let url = try BenchDatabase.prepare(BenchReadLog.databaseName(events: events, projects: projects, extras: true), reuse: true, environment: environment)
        let connection = try PostgresConnection(conninfo: url)
        // With the other projections' events (organizations, subscriptions, purchases,
        // impressions), so the organization and catalog pages have something to show.
        let log = BenchReadLog(events: events, projects: projects, extras: true)
        BenchOutput.line("log: \(events) events over \(projects) projects")
        try log.reuseOrBuild(url: url, connection: connection)
        // One of the log's apps gets the demo's catalog (products, campaigns with variants).
        let app = "bx-\(events)-app-1"
        let setup = DemoData.catalogApp(app, name: "Bench", keySeed: "ledger bench console").events
        let benchStore = EventStore(conninfo: url)
        _ = try benchStore.append(AppendRequest(events: try setup.map {
            try DemoData.toAppend($0.event, stream: "app-" + app, metadata: EventMetadata(actor: Actor(.system, "bench"), reason: "ledger bench console"),
                                  idempotencyKey: "bench-console:" + $0.name)
        }))
        benchStore.close()
        try ReadBenchmark.measureProjector(url: url, connection: connection)

        let connections = PostgresPool(conninfo: url, maximumConnections: 8)
        let store = EventStore(conninfo: url, connections: connections)
        defer { store.close() }
        let name = "bench-" + Hex.encode(SecureRandom.bytes(4))
        let password = OperatorDirectory.generatePassword()
        let directory = OperatorDirectory(connections: connections)
        let credential = try directory.storeCredential(operator: name, password: password)
        _ = try store.append(AppendRequest(try OperatorDecider.add(name: name, role: .operator, credential: credential, existing: nil),
                                           metadata: EventMetadata(actor: Actor(.system, "bench"), reason: "ledger bench console")))
        let settings = ConsoleSettings(secret: SecureRandom.bytes(32))
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 4),
                                router: Console(database: LedgerDatabase(store: store, connections: connections), settings: settings).router(),
                                logger: Logger(minimumLevel: .error, sink: MemoryLogSink()))
        try server.start()
        defer { server.shutdown(gracePeriod: 1) }
        let cookie = try signIn(port: server.port, name: name, password: password)

        let project = log.accounts[0].id
        let head = try LogReader(connection).headPosition()
        // An app with purchases and impressions, one of its users, and an organization of the log.
        let user = "bx-user-1"
        let org = try OrganizationsReadModel(connections: connections).organizations().first?.id ?? "none"
        let pages: [(String, String)] = [
            ("sign-in page (ceiling)", "/login"),
            ("search", "/?q=\(project)"),
            ("timeline of a project", "/timeline?subject=project%3A\(project)"),
            ("journal of a project", "/journal?account=project%3A\(project)"),
            ("balance and usage", "/usage?account=project%3A\(project)"),
            ("an event", "/events/\(head / 2)"),
            ("corrections", "/corrections"),
            ("chain", "/chain"),
            ("projections", "/projections"),
            ("catalog", "/apps"),
            ("an app's catalog, campaigns and impressions", "/apps/\(app)"),
            ("a user's purchases with an app", "/apps/\(app)?user=\(user)"),
            ("search for a user id", "/?q=\(user)"),
            ("an organization", "/orgs/\(org)"),
            ("rebuild (none running)", "/projections/rebuild"),
        ]
        var slowest = 0.0
        for (label, path) in pages {
            let summary = try HTTPLoad.run(port: server.port, concurrency: 1, count: requests, warmup: 20) { _ in
                HTTPLoad.Request(path: path, headers: [("Cookie", cookie)])
            }
            BenchOutput.line(summary.line("console \(label)"))
            if path != "/login" { slowest = max(slowest, summary.p99) }
        }
        BenchOutput.line(String(format: "console: slowest page p99 %.2f ms at %lld events", slowest, head))
        return 0
    }

    /// The session cookie, from the sign-in form and its POST.
    static func signIn(port: Int, name: String, password: String) throws -> String {
        func cookie(_ headers: HTTPHeaders, _ wanted: String) -> String? {
            headers.values(for: "set-cookie").first { $0.hasPrefix(wanted + "=") }.map { String($0.split(separator: ";")[0]) }
        }
        let form = try HTTPClient(host: "127.0.0.1", port: port).send(method: "GET", path: "/login")
        let page = String(decoding: form.body, as: UTF8.self)
        guard let login = cookie(form.headers, "ledger_console_login"), let range = page.range(of: #"name="csrf" value=""#) else {
            throw BenchmarkFailure(.unexpectedResponse, "the sign-in page has no form")
        }
        let token = String(page[range.upperBound...].prefix { $0 != "\"" })
        let body = "csrf=\(HTML.query(token))&name=\(HTML.query(name))&password=\(HTML.query(password))"
        let answer = try HTTPClient(host: "127.0.0.1", port: port).send(
            method: "POST", path: "/login", headers: [("Cookie", login), ("Content-Type", "application/x-www-form-urlencoded")], body: Array(body.utf8))
        guard answer.status == 303, let session = cookie(answer.headers, ConsoleSession.cookieName) else {
            throw BenchmarkFailure(.unexpectedResponse, "signing in answered \(answer.status)")
        }
        return session
    }
}
