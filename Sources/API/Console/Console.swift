import Crypto
import Foundation
import HTTP
import LedgerDomain
import LedgerServices

/// The operator and auditor console (docs/console.md): server-rendered HTML on a listener of its
/// own (LEDGER_CONSOLE_ADDRESS), never on the public port. It reads through the read
/// models and the log; every page needs a signed-in operator (docs/console.md).
public struct Console: Sendable {
    let database: LedgerDatabase
    let settings: ConsoleSettings
    let operators: OperatorDirectory
    let sessions: ConsoleSessionStore
    let jobs: ConsoleJobs
    /// The shared queries, on the console's database and clock (operators read every account).
    var queries: QueryRunner { database.queries(clock: settings.now) }
    /// The shared acts, on the console's database and clock.
    var runner: ActRunner { database.acts(now: settings.now) }

    public init(database: LedgerDatabase, settings: ConsoleSettings) {
        self.database = database
        self.settings = settings
        self.operators = database.operators
        self.sessions = database.consoleSessions
        self.jobs = ConsoleJobs(database: database, projectorConninfo: settings.projectorConninfo,
                                readyTimeout: settings.rebuildDecisionTimeout)
    }

    /// Every route of the console, each behind the `Host` check.
    public func router() -> Router {
        var router = Router()
        // A database that cannot be reached is a 503 with Retry-After here too, never a 500.
        router.errorMapper = DependencyProblems.problem(for:)
        func add(_ method: String, _ pattern: String, _ handler: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) {
            router.add(method, pattern) { request in
                try self.checkHost(request)
                return try handler(request)
            }
        }
        add("GET", "/login") { request in self.loginPage(request) }
        add("POST", "/login") { request in try self.login(request) }
        add("POST", "/logout") { request in try self.logout(request) }
        add("GET", "/") { request in try self.page(request, role: .viewer) { try self.searchPage(request, $0) } }
        add("GET", "/browse/{kind}") { request in try self.page(request, role: .viewer) { try self.directoryPage(request, $0) } }
        add("GET", "/timeline") { request in try self.page(request, role: .viewer) { try self.timelinePage(request, $0) } }
        add("GET", "/events/{position}") { request in try self.page(request, role: .viewer) { try self.eventPage(request, $0) } }
        add("GET", "/corrections") { request in try self.page(request, role: .auditor) { try self.correctionsPage(request, $0) } }
        add("GET", "/corrections.csv") { request in try self.page(request, role: .auditor) { try self.correctionsCSV(request, $0) } }
        add("GET", "/acts/{act}") { request in
            try self.page(request, role: .operator) { try self.actForm(try Self.act(named: request), request, $0) }
        }
        add("POST", "/acts/{act}/confirm") { request in try self.act(request) { try self.confirmAct(try Self.act(named: request), request, $0) } }
        add("POST", "/acts/{act}") { request in try self.act(request) { try self.appendAct(try Self.act(named: request), request, $0) } }
        add("GET", "/orgs/{id}") { request in try self.page(request, role: .viewer) { try self.organizationPage(request, $0) } }
        add("GET", "/usage") { request in try self.page(request, role: .viewer) { try self.usagePage(request, $0) } }
        add("GET", "/journal") { request in try self.page(request, role: .viewer) { try self.journalPage(request, $0) } }
        add("GET", "/apps") { request in try self.page(request, role: .viewer) { try self.appsPage(request, $0) } }
        add("GET", "/apps/{id}") { request in try self.page(request, role: .viewer) { try self.appPage(request, $0) } }
        add("GET", "/apps/{id}/user") { request in try self.page(request, role: .viewer) { try self.userPage(request, $0) } }
        add("GET", "/stripe/unattributed") { request in try self.page(request, role: .viewer) { try self.unattributedPage(request, $0) } }
        add("GET", "/projections") { request in try self.page(request, role: .viewer) { try self.projectionsPage(request, $0) } }
        add("GET", "/chain") { request in try self.page(request, role: .auditor) { try self.chainPage(request, $0) } }
        add("POST", "/chain/verify") { request in try self.posted(request, role: .auditor) { try self.startVerification(request, $0) } }
        add("POST", "/projections/{name}/rebuild") { request in try self.act(request) { try self.startRebuild(request, $0) } }
        add("GET", "/projections/rebuild") { request in try self.page(request, role: .viewer) { try self.rebuildPage(request, $0) } }
        add("POST", "/projections/rebuild/decide") { request in try self.act(request) { try self.decideRebuild(request, $0) } }
        router.setProblemShape(forPathsUnder: "/") { problem in
            HTML.page(title: problem.title, body: "<p class=\"error\" role=\"alert\">\(HTML.escape(problem.detail))</p>",
                      status: problem.status)
        }
        return router
    }

    /// Refuses a request whose `Host` is not one of the console's names (DNS rebinding:
    /// a page of another site, served from a name made to resolve to this address).
    func checkHost(_ request: HTTPRequest) throws {
        let host = Self.hostName(request.headers["host"] ?? "")
        guard settings.allowedHosts.contains(host) else {
            throw Problem(status: 421, code: "misdirected_request", title: "Wrong address",
                          detail: "This console answers at \(settings.allowedHosts.sorted().joined(separator: ", ")) only; open it by that address (LEDGER_CONSOLE_URL names another).")
        }
    }

    /// The host of a `Host` field, lowercase, without its port: `[::1]:8081` → `[::1]`.
    static func hostName(_ field: String) -> String {
        let text = field.lowercased()
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") { return String(text[...close]) }
        return String(text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// Who is signed in, for a page.
    struct Viewer {
        var state: OperatorDecider.State
        var session: ConsoleSession
        var csrf: String
        var frame: (name: String, role: String, csrf: String) { (state.name, state.role.rawValue, csrf) }
        /// The operator as a query's reader.
        var reader: Reader { .operator(state.name) }
    }

    /// The signed-in operator of a request: a cookie whose session is a row that has not
    /// ended, idled out or expired, of an operator who is not disabled, with the password
    /// it was opened with, and which no operator ended (docs/security.md).
    func viewer(_ request: HTTPRequest) throws -> Viewer? {
        guard let token = Self.cookie(settings.sessionCookie, in: request), ConsoleSession.isWellFormedToken(token),
              let session = try sessions.find(token: token) else { return nil }
        let now = settings.now().microseconds
        let state = try operators.state(of: session.operatorName)
        guard session.status(at: now, idleTimeout: settings.idleTimeout, operator: state) == .active, let state else { return nil }
        try sessions.touch(session, now: now)
        return Viewer(state: state, session: session, csrf: ConsoleSession.csrfToken(forToken: token, secret: settings.secret))
    }

    /// A page for operators of at least `role`; anyone else is sent to the login page (a
    /// GET) or refused.
    func page(_ request: HTTPRequest, role: OperatorRole, _ render: (Viewer) throws -> HTTPResponse) throws -> HTTPResponse {
        guard let viewer = try viewer(request) else { return Self.redirect("/login") }
        guard viewer.state.role.includes(role) else {
            throw Problem(status: 403, code: "forbidden", title: "Not allowed",
                          detail: "This page needs the role \(role.rawValue); \(viewer.state.name) is \(viewer.state.role.rawValue).")
        }
        do {
            return try render(viewer)
        } catch let problem as Problem {
            // A page that is not there (an unknown account, app or subject) keeps the
            // console's navigation and sign-out, as every other page does.
            var response = HTML.page(title: problem.title, body: "<p class=\"error\" role=\"alert\">\(HTML.escape(problem.detail))</p>",
                                     signedIn: viewer.frame, status: problem.status)
            response.headers.replaceOrAdd(name: "Cache-Control", value: "private, no-store")
            if let seconds = problem.retryAfter { response.headers.replaceOrAdd(name: "Retry-After", value: String(seconds)) }
            return response
        }
    }

    static func act(named request: HTTPRequest) throws -> ConsoleAct {
        guard let act = ConsoleAct.named(request.pathParameters["act"] ?? "") else {
            throw Problem(status: 404, code: "not_found", title: "No such act",
                          detail: "The console's acts are \(ConsoleAct.all.map(\.name).joined(separator: ", ")).")
        }
        return act
    }

    /// A POST that acts: a signed-in operator of the role `operator`; anyone else is refused.
    func act(_ request: HTTPRequest, _ render: (Viewer) throws -> HTTPResponse) throws -> HTTPResponse {
        try posted(request, role: .operator, render)
    }

    /// A POST by a signed-in operator of at least `role`; anyone else is refused.
    func posted(_ request: HTTPRequest, role: OperatorRole, _ render: (Viewer) throws -> HTTPResponse) throws -> HTTPResponse {
        guard let viewer = try viewer(request) else {
            throw Problem(status: 401, code: "signed_out", title: "Signed out", detail: "Sign in again, then send the form again.")
        }
        guard viewer.state.role.includes(role) else {
            throw Problem(status: 403, code: "forbidden", title: "Not allowed",
                          detail: "This needs the role \(role.rawValue); \(viewer.state.name) is \(viewer.state.role.rawValue).")
        }
        return try render(viewer)
    }

    /// The form fields of a POST by a signed-in operator, its CSRF token checked.
    func form(_ request: HTTPRequest, of viewer: Viewer) throws -> [String: String] {
        let fields = try request.formFields()
        guard let token = fields["csrf"], constantTimeEquals(Array(token.utf8), Array(viewer.csrf.utf8)) else {
            throw Problem(status: 403, code: "csrf_mismatch", title: "Form refused",
                          detail: "The form's token does not match this session: reload the page and send it again.")
        }
        return fields
    }

    static func cookie(_ name: String, in request: HTTPRequest) -> String? {
        for header in request.headers.values(for: "cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0] == name { return String(parts[1]) }
            }
        }
        return nil
    }

    /// `Set-Cookie` for the console: HttpOnly, Secure (browsers accept it on
    /// http://127.0.0.1 and localhost), SameSite=Strict, for the whole host and no domain
    /// (what the `__Host-` prefix requires over https).
    static func setCookie(_ name: String, _ value: String, maxAge: Int64) -> (String, String) {
        ("Set-Cookie", "\(name)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; Secure; SameSite=Strict")
    }

    /// The console's clock (seconds since 1970, `ConsoleSettings.now`) as a timestamp.
    static func redirect(_ location: String, cookies: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: 303, headers: HTTPHeaders([("Location", location), ("Cache-Control", "private, no-store")] + cookies))
    }
}
