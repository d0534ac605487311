import Crypto
import EventStore
import Foundation
import HTTP
import LedgerDomain
import Postgres

/// The operator and auditor console (issue 14): server-rendered HTML on a listener of its
/// own (LEDGER_CONSOLE_ADDRESS), never on the public port. It reads through the read
/// models and the log; every page needs a signed-in operator (docs/console.md).
public struct Console: Sendable {
    let pool: PostgresPool
    let store: EventStore
    let settings: ConsoleSettings
    let operators: OperatorDirectory
    let jobs: ConsoleJobs

    public init(pool: PostgresPool, store: EventStore, settings: ConsoleSettings) {
        self.pool = pool
        self.store = store
        self.settings = settings
        self.operators = OperatorDirectory(pool: pool)
        self.jobs = ConsoleJobs(readyTimeout: settings.rebuildDecisionTimeout)
    }

    /// Every route of the console.
    public func router() -> Router {
        var router = Router()
        // A database that cannot be reached is a 503 with Retry-After here too, never a 500.
        router.errorMapper = DependencyProblems.problem(for:)
        router.add("GET", "/login") { request in self.loginPage(request) }
        router.add("POST", "/login") { request in try self.login(request) }
        router.add("POST", "/logout") { request in try self.logout(request) }
        router.add("GET", "/") { request in try self.page(request, role: .viewer) { try self.searchPage(request, $0) } }
        router.add("GET", "/timeline") { request in try self.page(request, role: .viewer) { try self.timelinePage(request, $0) } }
        router.add("GET", "/events/{position}") { request in try self.page(request, role: .viewer) { try self.eventPage(request, $0) } }
        router.add("GET", "/corrections") { request in try self.page(request, role: .auditor) { try self.correctionsPage(request, $0) } }
        router.add("GET", "/corrections.csv") { request in try self.page(request, role: .auditor) { try self.correctionsCSV(request, $0) } }
        router.add("GET", "/acts/{act}") { request in
            try self.page(request, role: .operator) { try self.actForm(try Self.act(named: request), request, $0) }
        }
        router.add("POST", "/acts/{act}/confirm") { request in try self.act(request) { try self.confirmAct(try Self.act(named: request), request, $0) } }
        router.add("POST", "/acts/{act}") { request in try self.act(request) { try self.appendAct(try Self.act(named: request), request, $0) } }
        router.add("GET", "/orgs/{id}") { request in try self.page(request, role: .viewer) { try self.organizationPage(request, $0) } }
        router.add("GET", "/usage") { request in try self.page(request, role: .viewer) { try self.usagePage(request, $0) } }
        router.add("GET", "/journal") { request in try self.page(request, role: .viewer) { try self.journalPage(request, $0) } }
        router.add("GET", "/apps") { request in try self.page(request, role: .viewer) { try self.appsPage(request, $0) } }
        router.add("GET", "/apps/{id}") { request in try self.page(request, role: .viewer) { try self.appPage(request, $0) } }
        router.add("GET", "/projections") { request in try self.page(request, role: .viewer) { try self.projectionsPage(request, $0) } }
        router.add("GET", "/chain") { request in try self.page(request, role: .auditor) { try self.chainPage(request, $0) } }
        router.add("POST", "/chain/verify") { request in try self.posted(request, role: .auditor) { try self.startVerification(request, $0) } }
        router.add("POST", "/projections/{name}/rebuild") { request in try self.act(request) { try self.startRebuild(request, $0) } }
        router.add("GET", "/projections/rebuild") { request in try self.page(request, role: .viewer) { try self.rebuildPage(request, $0) } }
        router.add("POST", "/projections/rebuild/decide") { request in try self.act(request) { try self.decideRebuild(request, $0) } }
        router.setProblemShape(forPathsUnder: "/") { problem in
            HTML.page(title: problem.title ?? "Error", body: "<p class=\"error\" role=\"alert\">\(HTML.escape(problem.detail))</p>",
                      status: problem.status)
        }
        return router
    }

    /// Who is signed in, for a page.
    struct Viewer {
        var state: OperatorDecider.State
        var session: ConsoleSession
        var csrf: String
        var frame: (name: String, role: String, csrf: String) { (state.name, state.role.rawValue, csrf) }
    }

    /// The signed-in operator of a request: a valid cookie, an operator who is not
    /// disabled, and the credential still theirs (a reset signs out).
    func viewer(_ request: HTTPRequest) throws -> Viewer? {
        guard let value = Self.cookie(ConsoleSession.cookieName, in: request),
              let session = ConsoleSession(cookieValue: value, secret: settings.secret, now: Int64(settings.now())),
              let state = try operators.state(of: session.operatorName),
              !state.disabled, state.credential == session.credential else { return nil }
        return Viewer(state: state, session: session, csrf: session.csrfToken(secret: settings.secret))
    }

    /// A page for operators of at least `role`; anyone else is sent to the login page (a
    /// GET) or refused.
    func page(_ request: HTTPRequest, role: OperatorRole, _ render: (Viewer) throws -> HTTPResponse) throws -> HTTPResponse {
        guard let viewer = try viewer(request) else { return Self.redirect("/login") }
        guard viewer.state.role.includes(role) else {
            throw Problem(status: 403, code: "forbidden", title: "Not allowed",
                          detail: "This page needs the role \(role.rawValue); \(viewer.state.name) is \(viewer.state.role.rawValue).")
        }
        return try render(viewer)
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
    /// http://127.0.0.1 and localhost), SameSite=Strict.
    static func setCookie(_ name: String, _ value: String, maxAge: Int64) -> (String, String) {
        ("Set-Cookie", "\(name)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; Secure; SameSite=Strict")
    }

    /// The console's clock (seconds since 1970, `ConsoleSettings.now`) as a timestamp.
    static func timestamp(_ seconds: Double) -> Timestamp {
        Timestamp(microseconds: Int64(seconds * 1e6)) ?? .minimum
    }

    static func redirect(_ location: String, cookies: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: 303, headers: HTTPHeaders([("Location", location), ("Cache-Control", "private, no-store")] + cookies))
    }
}
