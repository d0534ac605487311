import API
import BenchHTTP
import Crypto
import EventStore
import Foundation
import HTTP
import LedgerCLI
import LedgerDomain
import LedgerFixtures
import LedgerJSON
import LedgerServices
import Observability
import Postgres
import Synchronization
import Testing
import TestSupport
import Threads

/// The operator console (docs/console.md), first part: operators as principals and the console's sign-in, sessions,
/// CSRF and lockout, search, timelines and events with their corrections, over HTTP.
@Suite("The operator console", .bounded)
struct ConsoleTests {
    final class Browser {
        let port: Int
        var cookies: [String: String] = [:]
        /// Header fields sent with every request (an `X-Forwarded-For` behind a proxy).
        var extraHeaders: [(String, String)] = []
        /// The `Host` field, when not the address connected to.
        var hostField: String?
        init(port: Int) { self.port = port }

        func send(_ method: String, _ path: String, form: [(String, String)]? = nil) throws -> (status: Int, headers: HTTPHeaders, text: String) {
            var headers: [(String, String)] = extraHeaders
            if !cookies.isEmpty { headers.append(("Cookie", cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; "))) }
            var body: [UInt8] = []
            if let form {
                headers.append(("Content-Type", "application/x-www-form-urlencoded"))
                body = Array(form.map { "\(HTML.query($0.0))=\(HTML.query($0.1))" }.joined(separator: "&").utf8)
            }
            let response = try HTTPClient(host: "127.0.0.1", port: port).send(method: method, path: path, headers: headers, body: body,
                                                                               hostField: hostField)
            for header in response.headers.values(for: "set-cookie") {
                let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(pair[0]), value = pair.count > 1 ? String(pair[1]) : ""
                if header.contains("Max-Age=0") || value.isEmpty { cookies[name] = nil } else { cookies[name] = value }
            }
            return (response.status, response.headers, String(decoding: response.body, as: UTF8.self))
        }

        /// The value of the hidden `csrf` field of the page.
        static func csrf(_ page: String) -> String? {
            guard let range = page.range(of: #"name="csrf" value=""#) else { return nil }
            return String(page[range.upperBound...].prefix { $0 != "\"" })
        }

        func signIn(_ name: String, _ password: String) throws -> (status: Int, headers: HTTPHeaders, text: String) {
            let page = try send("GET", "/login")
            return try send("POST", "/login", form: [("csrf", Self.csrf(page.text) ?? ""), ("name", name), ("password", password)])
        }
    }

    final class Harness {
        let f: AdminFixture
        let server: HTTPServer
        /// The console's own, on a login in `ledger_console` alone, as `ledger console`
        /// runs: every test here proves the role lets the console do what it does.
        let consoleStore: EventStore
        let consolePool: PostgresPool
        let clock = ManualClock("2026-11-15T12:00:00Z")
        let settings: ConsoleSettings
        /// `proxied`: the console is behind a proxy on 127.0.0.1 (LEDGER_TRUSTED_PROXIES), so
        /// that browsers can say which address they come from (`browser(from:)`).
        init(lockout: ConsoleLockout.Limits = .init(), proxied: Bool = false, https: Bool = false,
             configure: (inout ConsoleSettings) -> Void = { _ in }) throws {
            f = try AdminFixture()
            consolePool = PostgresPool(conninfo: f.db.consoleURL, maximumConnections: 4)
            consoleStore = EventStore(conninfo: f.db.consoleURL, connections: consolePool)
            let clock = self.clock
            var settings = ConsoleSettings(secret: Array("a console secret of the tests, 32+ bytes".utf8),
                                           lockout: ConsoleLockout(limits: lockout), now: clock.read)
            settings.projectorConninfo = f.db.projectorURL
            settings.https = https
            configure(&settings)
            self.settings = settings
            server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 4,
                                                                       trustedProxies: proxied ? try TrustedProxies(parsing: "127.0.0.1") : .none),
                                router: Console(database: LedgerDatabase(store: consoleStore, connections: consolePool), settings: settings).router(),
                                logger: Logger(minimumLevel: .error, sink: MemoryLogSink()))
            try server.start()
        }
        func browser() -> Browser { Browser(port: server.port) }
        /// A browser at `address`, seen through the proxy.
        func browser(from address: String) -> Browser {
            let browser = Browser(port: server.port)
            browser.extraHeaders = [("X-Forwarded-For", address)]
            return browser
        }
        func addOperator(_ name: String, role: String) throws -> String {
            let added = try f.adminJSON(["operator", "add", "--name", name, "--role", role])
            return try #require(added["password"]?.stringValue)
        }
        deinit {
            server.shutdown(gracePeriod: 1)
            consoleStore.close()
            consolePool.closeIdle()
            f.shutdown()
        }
    }

    @Test("sign in, see the search page, sign out; a wrong password, an unknown name and a disabled operator are refused alike")
    func signInAndOut() throws {
        let h = try Harness()
        let password = try h.addOperator("alice", role: "auditor")
        let browser = h.browser()
        #expect(try browser.send("GET", "/").status == 303, "signed out, a page sends to the login")
        let signedIn = try browser.signIn("alice", password)
        #expect(signedIn.status == 303 && signedIn.headers["location"] == "/")
        let cookie = try #require(signedIn.headers.values(for: "set-cookie").first { $0.hasPrefix(ConsoleSession.cookieName + "=") })
        #expect(!cookie.contains("Domain"), "host-only")
        for attribute in ["HttpOnly", "Secure", "SameSite=Strict", "Path=/"] { #expect(cookie.contains(attribute), "\(attribute)") }
        let home = try browser.send("GET", "/")
        #expect(home.status == 200 && home.text.contains("alice (auditor)"))
        #expect(home.headers["content-security-policy"]?.contains("default-src 'none'") == true)
        #expect(home.headers["cache-control"] == "private, no-store")
        // Sign out needs the page's token.
        #expect(try browser.send("POST", "/logout", form: [("csrf", "forged")]).status == 403)
        #expect(try browser.send("POST", "/logout", form: [("csrf", Browser.csrf(home.text) ?? "")]).status == 303)
        #expect(try browser.send("GET", "/").status == 303)

        let wrong = try h.browser().signIn("alice", password + "x")
        let unknown = try h.browser().signIn("nobody", password)
        #expect(wrong.status == 401 && unknown.status == 401)
        #expect(wrong.text.contains("The name or the password is wrong") && unknown.text.contains("The name or the password is wrong"))
        _ = try h.f.adminJSON(["operator", "disable", "--name", "alice"])
        #expect(try h.browser().signIn("alice", password).status == 401)
    }

    @Test("a session ends when its operator is disabled or their password is reset")
    func sessionsEnd() throws {
        let h = try Harness()
        let password = try h.addOperator("bob", role: "viewer")
        let first = h.browser(), second = h.browser()
        #expect(try first.signIn("bob", password).status == 303)
        #expect(try first.send("GET", "/").status == 200)
        let reset = try h.f.adminJSON(["operator", "reset", "--name", "bob"])
        let newPassword = try #require(reset["password"]?.stringValue)
        #expect(newPassword != password)
        #expect(try first.send("GET", "/").status == 303, "the old password's session ended")
        #expect(try second.signIn("bob", password).status == 401)
        #expect(try second.signIn("bob", newPassword).status == 303)
        #expect(try second.send("GET", "/").status == 200)
        _ = try h.f.adminJSON(["operator", "disable", "--name", "bob"])
        #expect(try second.send("GET", "/").status == 303, "disabled")
    }

    @Test("signing out ends every copy of the cookie, for pages and for CSRF-checked forms alike")
    func signOutEndsCopies() throws {
        let h = try Harness()
        let password = try h.addOperator("erin", role: "operator")
        let browser = h.browser()
        #expect(try browser.signIn("erin", password).status == 303)
        let home = try browser.send("GET", "/")
        let csrf = try #require(Browser.csrf(home.text))
        // A copy taken before signing out: another machine, a stolen cookie jar.
        let copy = h.browser()
        copy.cookies = browser.cookies
        #expect(try copy.send("GET", "/").status == 200)
        #expect(try browser.send("POST", "/logout", form: [("csrf", csrf)]).status == 303)
        #expect(try copy.send("GET", "/").status == 303, "the copy is signed out too")
        #expect(try copy.send("GET", "/corrections").status == 303)
        let posted = try copy.send("POST", "/acts/credit/confirm", form: [("csrf", csrf), ("pool", "payer:acme"), ("amount", "1")])
        #expect(posted.status == 401, "a form with the copy's CSRF token is refused: \(posted.text.prefix(200))")
        #expect(try copy.send("POST", "/logout", form: [("csrf", csrf)]).status == 303)
        // A cookie no session ever had, of the right form or not.
        let forged = h.browser()
        for value in [ConsoleSession.newToken(), "x", String(repeating: "A", count: 43)] {
            forged.cookies = [ConsoleSession.cookieName: value]
            #expect(try forged.send("GET", "/").status == 303)
        }
    }

    @Test("a session ends after LEDGER_CONSOLE_IDLE_MINUTES without a request, and after its lifetime however active")
    func idleAndLifetime() throws {
        let h = try Harness { $0.idleTimeout = 30 * 60; $0.sessionLifetime = 8 * 3600 }
        let password = try h.addOperator("frank", role: "viewer")
        let idle = h.browser(), busy = h.browser()
        #expect(try idle.signIn("frank", password).status == 303)
        #expect(try busy.signIn("frank", password).status == 303)
        h.clock.advance(seconds: 25 * 60)
        #expect(try busy.send("GET", "/").status == 200)
        #expect(try idle.send("GET", "/").status == 200, "25 minutes idle: still signed in")
        h.clock.advance(seconds: 31 * 60)
        #expect(try idle.send("GET", "/").status == 303, "31 minutes idle: signed out")
        #expect(try busy.send("GET", "/").status == 303, "busy was idle for 31 minutes too")
        #expect(try busy.signIn("frank", password).status == 303)
        var elapsed = 0.0
        while elapsed + 25 * 60 < 8 * 3600 {
            h.clock.advance(seconds: 25 * 60)
            elapsed += 25 * 60
            #expect(try busy.send("GET", "/").status == 200, "active after \(elapsed / 60) minutes")
        }
        h.clock.advance(seconds: 8 * 3600 - elapsed + 1)
        #expect(try busy.send("GET", "/").status == 303, "past 8 hours: signed out, however active")
    }

    @Test("ledger admin operator sessions lists them and ends one, or every one of an operator, at once")
    func operatorSessions() throws {
        let h = try Harness()
        let password = try h.addOperator("gina", role: "viewer")
        let laptop = h.browser(), phone = h.browser()
        laptop.extraHeaders = [("User-Agent", "LaptopBrowser/1.0")]
        phone.extraHeaders = [("User-Agent", "PhoneBrowser/2.0 ünïcödé <b>")]
        #expect(try laptop.signIn("gina", password).status == 303)
        #expect(try phone.signIn("gina", password).status == 303)
        let listed = try h.f.read(["operator", "sessions", "--name", "gina"])["sessions"]?.arrayValue ?? []
        #expect(listed.count == 2 && listed.allSatisfy { $0["status"] == "active" && $0["address"] == "127.0.0.1" }, "\(listed)")
        #expect(listed.allSatisfy { !($0["user_agent"]?.stringValue ?? "").contains("ü") }, "a user agent is printed as ASCII")
        let laptopID = try #require(listed.first { $0["user_agent"]?.stringValue?.hasPrefix("Laptop") == true }?["session_id"]?.stringValue)
        let ended = try h.f.adminJSON(["operator", "sessions", "end", "--session", laptopID], reason: "lost laptop")
        #expect(ended["events"]?[0]?["type"] == "operator.sessions_ended", "\(ended)")
        #expect(try laptop.send("GET", "/").status == 303, "the laptop's session ended")
        #expect(try phone.send("GET", "/").status == 200, "the phone's did not")
        let all = try h.f.read(["operator", "sessions", "--name", "gina", "--all"])["sessions"]?.arrayValue ?? []
        #expect(all.first { $0["session_id"]?.stringValue == laptopID }?["status"]?.stringValue?.hasPrefix("ended") == true, "\(all)")
        _ = try h.f.adminJSON(["operator", "sessions", "end", "--name", "gina"], reason: "rotation")
        #expect(try phone.send("GET", "/").status == 303, "every session of gina ended")
        let again = try phone.signIn("gina", password)
        #expect(again.status == 303, "she can sign in again: \(again.status) \(again.text.prefix(300))")
        #expect(try phone.send("GET", "/").status == 200)
        #expect(try h.f.read(["operator", "sessions", "--name", "gina"])["sessions"]?.arrayValue?.count == 1)
    }

    @Test("a login form from elsewhere is refused; failures from one address slow that address, with backoff")
    func loginCSRFAndBackoff() throws {
        let h = try Harness(lockout: .init(freePerPair: 3, perAddress: 100, window: 900, maximumDelay: 900))
        let password = try h.addOperator("carol", role: "operator")
        let attacker = h.browser()
        #expect(try attacker.send("POST", "/login", form: [("csrf", "x"), ("name", "carol"), ("password", password)]).status == 403)
        let browser = h.browser()
        for _ in 0..<3 { #expect(try browser.signIn("carol", "guess").status == 401) }
        let locked = try browser.signIn("carol", password)
        #expect(locked.status == 429 && locked.headers["retry-after"] == "1", "the fourth waits a second: \(locked.headers)")
        h.clock.advance(seconds: 1)
        #expect(try browser.signIn("carol", "guess").status == 401)
        #expect(try browser.signIn("carol", password).headers["retry-after"] == "2", "then two")
        h.clock.advance(seconds: 2)
        #expect(try browser.signIn("carol", password).status == 303, "and the right password works once the wait is over")
    }

    @Test("a stranger's wrong passwords, concurrent or not, never lock the operator out of their own address")
    func strangersCannotLockOut() throws {
        let h = try Harness(lockout: .init(freePerPair: 5, perAddress: 20, window: 900, maximumDelay: 900), proxied: true)
        let password = try h.addOperator("hana", role: "operator")
        // 16 wrong passwords at once from the stranger's address: the count is taken before
        // the password is checked, so exactly 5 are checked (the clock does not move).
        let statuses = Mutex<[Int]>([])
        let port = h.server.port
        ThreadGroup.run(16, name: "guess") { _ in
            let stranger = Browser(port: port)
            stranger.extraHeaders = [("X-Forwarded-For", "203.0.113.9")]
            let s = (try? stranger.signIn("hana", "guess").status) ?? -1
            statuses.withLock { $0.append(s) }
        }
        let seen = statuses.withLock { $0 }
        #expect(seen.filter { $0 == 401 }.count == 5 && seen.filter { $0 == 429 }.count == 11, "\(seen.sorted())")
        #expect(h.settings.lockout.failureCount(name: "hana", address: "203.0.113.9", now: h.settings.now().seconds) == 5)
        // The operator, from another address: at once, with the right password.
        #expect(try h.browser(from: "198.51.100.7").signIn("hana", password).status == 303)
        // Through the proxy, the right-most address of X-Forwarded-For is the client: what a
        // client wrote before it counts for nothing.
        #expect(try h.browser(from: "198.51.100.7, 203.0.113.9").signIn("hana", password).status == 429)
        // A name far past any operator's is counted as an invalid one, not kept.
        #expect(ConsoleLockout.countedName(String(repeating: "n", count: 1 << 20)) == "(invalid)")
        #expect(try h.browser(from: "192.0.2.1").signIn(String(repeating: "n", count: 60_000), "x").status == 401)
    }

    @Test("a request whose Host is not the console's is refused before anything, sign-ins included")
    func hostIsChecked() throws {
        let h = try Harness(lockout: .init(freePerPair: 1, perAddress: 100, window: 900, maximumDelay: 900))
        let password = try h.addOperator("ivan", role: "operator")
        let rebinding = h.browser()
        rebinding.hostField = "evil.example:\(h.server.port)"
        #expect(try rebinding.send("GET", "/login").status == 421)
        for _ in 0..<5 {
            #expect(try rebinding.send("POST", "/login", form: [("csrf", "x"), ("name", "ivan"), ("password", "guess")]).status == 421)
        }
        let local = h.browser()
        local.hostField = "localhost:\(h.server.port)"
        #expect(try local.signIn("ivan", password).status == 303, "nothing was counted against ivan")
        #expect(try local.send("GET", "/").status == 200)
        local.hostField = "LOCALHOST:\(h.server.port)"
        #expect(try local.send("GET", "/").status == 200, "host names are case-insensitive")
        local.hostField = "localhost.evil.example"
        #expect(try local.send("GET", "/").status == 421)
    }

    @Test("over https the cookies take the __Host- prefix")
    func hostPrefixOverHTTPS() throws {
        let h = try Harness(https: true)
        let password = try h.addOperator("jane", role: "viewer")
        let browser = h.browser()
        let signedIn = try browser.signIn("jane", password)
        let cookie = try #require(signedIn.headers.values(for: "set-cookie").first { $0.hasPrefix("__Host-ledger_console=") }, "\(signedIn.headers)")
        for attribute in ["Secure", "Path=/", "HttpOnly", "SameSite=Strict"] { #expect(cookie.contains(attribute)) }
        #expect(!cookie.contains("Domain"))
        #expect(try browser.send("GET", "/").status == 200)
        browser.cookies = ["ledger_console": browser.cookies["__Host-ledger_console"] ?? ""]
        #expect(try browser.send("GET", "/").status == 303, "the unprefixed name is not read over https")
    }

    @Test("J3, J4: an operator posts a correction (bounded by its entry) and a credit through a confirmation that shows the event; each is in the log with their name, once")
    func correctionAct() throws {
        let h = try Harness()
        let password = try h.addOperator("olga", role: "operator")
        let auditorPassword = try h.addOperator("avery", role: "auditor")
        try h.f.payer("acme")
        let credit = try h.f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "1000", "--description", "goodwill"])
        let creditPosition = try #require(credit["events"]?.arrayValue?.first?["position"]?.int64Value)
        try h.f.settle()
        let entry = "je_\(creditPosition)_0"
        let browser = h.browser()
        #expect(try browser.signIn("olga", password).status == 303)
        let form = try browser.send("GET", "/acts/correct?entry=\(entry)")
        let csrf = try #require(Browser.csrf(form.text))
        #expect(form.status == 200 && form.text.contains("value=\"\(entry)\""))
        let fields = [("csrf", csrf), ("entry", entry), ("amount", "-300"), ("reason", "refund of order 7")]
        #expect(try browser.send("POST", "/acts/correct/confirm", form: [("csrf", "forged")] + fields.dropFirst()).status == 403)
        let confirm = try browser.send("POST", "/acts/correct/confirm", form: fields)
        #expect(confirm.status == 200 && confirm.text.contains("Confirm: correct a journal entry") && confirm.text.contains("refund of order 7"))
        #expect(confirm.text.contains(#"<td>payer-acme</td>"#), "the event to be appended is shown: \(confirm.text)")
        let head = try h.f.head()
        #expect(try h.f.head() == head, "confirming appends nothing")
        let key = try #require(confirm.text.range(of: #"name="key" value=""#).map { String(confirm.text[$0.upperBound...].prefix { $0 != "\"" }) })
        let final = fields + [("key", key)]
        let appended = try browser.send("POST", "/acts/correct", form: final)
        let location = try #require(appended.headers["location"])
        #expect(appended.status == 303 && location.hasPrefix("/events/"))
        let position = try #require(Int64(location.dropFirst("/events/".count)))
        let event = try #require(try h.f.store.log.event(at: position))
        #expect(event.correctsPosition == creditPosition)
        let metadata = try #require(try event.metadata())
        #expect(metadata.actor == Actor(.operator, "olga") && metadata.reason == "refund of order 7")
        // Sent again (a double click, a retry after a lost answer): the same event, nothing more.
        let again = try browser.send("POST", "/acts/correct", form: final)
        #expect(again.headers["location"] == location)
        #expect(try h.f.head() == head + 1)
        // Past the entry's bound: refused by the decider, shown on the form, nothing appended.
        try h.f.settle()
        let over = try browser.send("POST", "/acts/correct/confirm", form: [("csrf", csrf), ("entry", entry), ("amount", "-800"), ("reason", "too much")])
        #expect(over.status == 422 && over.text.contains("class=\"error\""))
        // An auditor may not act.
        let auditor = h.browser()
        #expect(try auditor.signIn("avery", auditorPassword).status == 303)
        let auditorCSRF = try #require(Browser.csrf(try auditor.send("GET", "/").text))
        #expect(try auditor.send("GET", "/acts/correct").status == 403)
        #expect(try auditor.send("POST", "/acts/correct/confirm", form: [("csrf", auditorCSRF), ("entry", entry), ("amount", "-1"), ("reason", "x")]).status == 403)
        #expect(try h.f.head() == head + 1)

        // Credit, the same way: the event ledger admin credit appends, under the operator's name.
        let creditForm = try browser.send("GET", "/acts/credit?pool=payer%3Aacme")
        #expect(creditForm.status == 200 && creditForm.text.contains("value=\"payer:acme\""))
        let creditFields = [("csrf", csrf), ("pool", "payer:acme"), ("source", "grant"), ("amount", "2500"),
                            ("description", "apology for the outage"), ("reason", "ticket 42")]
        let creditConfirm = try browser.send("POST", "/acts/credit/confirm", form: creditFields)
        #expect(creditConfirm.status == 200 && creditConfirm.text.contains("credit.posted"))
        let creditKey = try #require(creditConfirm.text.range(of: #"name="key" value=""#).map { String(creditConfirm.text[$0.upperBound...].prefix { $0 != "\"" }) })
        let posted = try browser.send("POST", "/acts/credit", form: creditFields + [("key", creditKey)])
        let creditLocation = try #require(posted.headers["location"])
        let creditPosted = try #require(Int64(creditLocation.dropFirst("/events/".count)))
        let creditEvent = try #require(try h.f.store.log.event(at: creditPosted))
        let creditMetadata = try creditEvent.metadata()
        #expect(creditEvent.type == "credit.posted" && creditMetadata?.actor == Actor(.operator, "olga"))
        #expect(try browser.send("POST", "/acts/credit/confirm", form: [("csrf", csrf), ("pool", "payer:ghost"), ("source", "grant"),
                                                                        ("amount", "1"), ("description", "d"), ("reason", "r")]).status == 422)
        #expect(try browser.send("POST", "/acts/credit/confirm", form: [("csrf", csrf), ("pool", "payer:acme"), ("source", "gift"),
                                                                        ("amount", "1"), ("description", "d"), ("reason", "r")]).status == 422)
        #expect(try browser.send("GET", "/acts/nothing").status == 404)
        #expect(try h.f.head() == head + 2)

        // A plan and a key revoked, the same way; each refusal names what was wrong.
        func act(_ name: String, _ fields: [(String, String)]) throws -> (status: Int, headers: HTTPHeaders, text: String) {
            let confirmation = try browser.send("POST", "/acts/\(name)/confirm", form: [("csrf", csrf)] + fields)
            guard confirmation.status == 200, let key = confirmation.text.range(of: #"name="key" value=""#)
                .map({ String(confirmation.text[$0.upperBound...].prefix { $0 != "\"" }) }) else { return confirmation }
            return try browser.send("POST", "/acts/\(name)", form: [("csrf", csrf), ("key", key)] + fields)
        }
        // While the billing projection lacks the account's last event, an act on the account
        // is a 503 to retry, at once (no request thread waits); then it goes through.
        try h.f.settle()
        h.f.stopProjector()
        try h.f.append(CreditPosted(pool: .payer("acme"), source: .grant, amount: Millicredits(1), description: "unprojected"),
                       stream: "payer-acme")
        let behind = try browser.send("POST", "/acts/plan-set/confirm", form: [("csrf", csrf), ("pool", "payer:acme"), ("plan", "scale"),
                                                                           ("allowance_storage_bytes", "1"), ("reason", "r")])
        #expect(behind.status == 503 && behind.headers["retry-after"] == "1")
        h.f.startProjector()
        try h.f.settle()
        let plan = try act("plan-set", [("pool", "payer:acme"), ("plan", "scale"), ("allowance_storage_bytes", "1073741824"), ("reason", "upgrade")])
        #expect(plan.status == 303)
        let issued = try h.f.adminJSON(["key", "issue", "--payer", "acme"])
        let keyID = try #require(issued["key_id"]?.stringValue)
        #expect(try act("key-revoke", [("key_id", keyID), ("reason", "leaked in a log")]).status == 303)
        let twice = try act("key-revoke", [("key_id", keyID), ("reason", "twice")])
        #expect(twice.status == 422 && twice.text.contains("already revoked"))
        #expect(try act("key-revoke", [("key_id", "key_nope"), ("reason", "r")]).text.contains("key key_nope does not exist"), "the refusal ledger admin key revoke gives")
        #expect(try act("plan-set", [("pool", "payer:acme"), ("plan", "scale"), ("allowance_storage_bytes", "-1"), ("reason", "r")]).status == 422)
        #expect(try h.f.head() == head + 6, "the unprojected credit, the plan, the key issued and revoked; refusals appended nothing")

        // A hold released, and staff's education decision, the same way.
        try h.f.project("web", payer: "acme")
        _ = try h.f.adminJSON(["hold", "place", "--id", "h1", "--project", "web", "--amount", "100", "--description", "render job"])
        #expect(try act("hold-release", [("hold", "h1"), ("reason", "job cancelled")]).status == 303)
        let released = try act("hold-release", [("hold", "h1"), ("reason", "again")])
        #expect(released.status == 422 && released.text.contains("class=\"error\""))
        _ = try h.f.adminJSON(["org", "create", "--id", "school", "--name", "A School"])
        #expect(try act("org-education", [("org", "school"), ("decision", "eligible"), ("reason", "accredited")]).status == 303)
        #expect(try act("org-education", [("org", "nowhere"), ("decision", "eligible"), ("reason", "r")]).text.contains("no organization nowhere"), "the refusal ledger admin org education gives")
        #expect(try act("org-education", [("org", "school"), ("decision", "maybe"), ("reason", "r")]).status == 422)
        #expect(try h.f.store.log.readStream("hold-h1").map(\.type) == ["hold.placed", "hold.released"])
        let school = try h.f.store.log.readStream("org-school")
        #expect(school.last.map { (try? $0.metadata())??.reason } == "accredited", "\(school.map(\.type))")

    }

    @Test("a database that cannot be reached is a 503 with Retry-After on the console's pages, never a 500")
    func databaseDown() throws {
        let url = "postgresql://ledger@127.0.0.1:1/none?connect_timeout=1"
        let pool = PostgresPool(conninfo: url, maximumConnections: 1)
        let store = EventStore(conninfo: url, connections: pool)
        defer { store.close() }
        let secret = Array("a console secret of the tests, 32+ bytes".utf8)
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 2),
                                router: Console(database: LedgerDatabase(store: store, connections: pool), settings: ConsoleSettings(secret: secret)).router(),
                                logger: Logger(minimumLevel: .error, sink: MemoryLogSink()))
        try server.start()
        defer { server.shutdown(gracePeriod: 1) }
        let browser = Browser(port: server.port)
        browser.cookies[ConsoleSession.cookieName] = ConsoleSession.newToken()
        for path in ["/", "/timeline?subject=payer%3Aacme", "/events/1", "/corrections"] {
            let answer = try browser.send("GET", path)
            #expect(answer.status == 503 && answer.headers["retry-after"] != nil, "\(path): \(answer.status)")
        }
    }

    @Test("search finds a payer, a position and an event id; the timeline links a correction to its original and back")
    func searchTimelineAndCorrections() throws {
        let h = try Harness()
        let password = try h.addOperator("dave", role: "auditor")
        try h.f.payer("acme")
        let credit = try h.f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "100", "--description", "goodwill"])
        let creditPosition = try #require(credit["events"]?.arrayValue?.first?["position"]?.int64Value)
        let correction = try h.f.adminJSON(["correct", "--entry", "je_\(creditPosition)_0", "--amount", "-40"])
        let correctionPosition = try #require(correction["events"]?.arrayValue?.first?["position"]?.int64Value)
        let browser = h.browser()
        #expect(try browser.signIn("dave", password).status == 303)

        let found = try browser.send("GET", "/?q=acme")
        #expect(found.text.contains(#"href="/timeline?subject=payer%3Aacme""#), "\(found.text)")
        let timeline = try browser.send("GET", "/timeline?subject=payer%3Aacme")
        #expect(timeline.status == 200 && timeline.text.contains("Timeline of payer acme"))
        #expect(timeline.text.contains("corrects <a href=\"/events/\(creditPosition)\">"))
        #expect(timeline.text.contains("checked by the tests"), "the reason is shown")
        let original = try browser.send("GET", "/events/\(creditPosition)")
        #expect(original.text.contains("Corrected by") && original.text.contains("href=\"/events/\(correctionPosition)\""))
        let corrected = try browser.send("GET", "/events/\(correctionPosition)")
        #expect(corrected.text.contains("Corrects") && corrected.text.contains("href=\"/events/\(creditPosition)\""))

        let event = try #require(try h.f.store.log.event(at: correctionPosition))
        #expect(try browser.send("GET", "/?q=\(correctionPosition)").text.contains("href=\"/events/\(correctionPosition)\""))
        #expect(try browser.send("GET", "/?q=\(event.eventID.uuidString)").text.contains("href=\"/events/\(correctionPosition)\""))
        #expect(try browser.send("GET", "/?q=nothing-here").text.contains("Nothing in the log matches"))
        // What a page shows is escaped: a stream name cannot inject markup.
        #expect(try browser.send("GET", "/?q=%3Cscript%3E").text.contains("&lt;script&gt;"))
        #expect(try browser.send("GET", "/timeline?subject=bogus").status == 400)
        #expect(try browser.send("GET", "/events/999999").status == 404)
        // An unknown subject is not found on every page alike, and the page keeps the
        // console's navigation and sign-out.
        for path in ["/timeline?subject=payer%3Anosuch", "/usage?account=payer%3Anosuch", "/journal?account=payer%3Anosuch"] {
            let missing = try browser.send("GET", path)
            #expect(missing.status == 404, "\(path)")
            #expect(missing.text.contains(#"<nav aria-label="Console">"#) && missing.text.contains("Sign out"), "\(path): \(missing.text)")
        }

        // The auditor's corrections: filtered, linked to the original, exported.
        let corrections = try browser.send("GET", "/corrections?account=payer%3Aacme")
        #expect(corrections.status == 200 && corrections.text.contains("1 correction,"))
        #expect(corrections.text.contains("href=\"/events/\(creditPosition)\">je_\(creditPosition)_0</a>"))
        #expect(corrections.text.contains("href=\"/corrections.csv?account=payer%3Aacme\""))
        let csv = try browser.send("GET", "/corrections.csv?account=payer%3Aacme")
        #expect(csv.status == 200 && csv.headers["content-type"] == "text/csv; charset=utf-8")
        #expect(csv.headers["content-disposition"]?.contains("attachment") == true)
        let lines = csv.text.split(separator: "\n")
        #expect(lines.first == "position,account,correction_id,corrects,amount,actor,at,reason")
        #expect(lines.count == 2 && lines[1].hasPrefix("\(correctionPosition),payer:acme,") && lines[1].contains(",je_\(creditPosition)_0,"))
        #expect(try browser.send("GET", "/corrections?account=nonsense").status == 400)
        #expect(try browser.send("GET", "/corrections?since=yesterday").status == 400)
        let none = try browser.send("GET", "/corrections?account=payer%3Aacme&since=2099-01-01")
        #expect(none.text.contains("No correction matches"))
        // The chain, verified on request.
        let chainPage = try browser.send("GET", "/chain")
        #expect(chainPage.status == 200 && chainPage.text.contains("event_canonical_bytes"))
        #expect(try browser.send("POST", "/chain/verify", form: [("csrf", Browser.csrf(chainPage.text) ?? "")]).status == 303)
        #expect(Poll.until(timeout: 20) { (try? browser.send("GET", "/chain").text.contains("<strong>Valid</strong>")) == true })

        // The journal: the correction and the entry it corrects, linked both ways.
        #expect(found.text.contains(#"href="/journal?account=payer%3Aacme""#))
        let journal = try browser.send("GET", "/journal?account=payer%3Aacme")
        #expect(journal.status == 200 && journal.text.contains("Journal of payer:acme"))
        #expect(journal.text.contains("corrected by <a id=\"to-je_\(correctionPosition)_0\" href=\"#je_\(correctionPosition)_0\">"))
        #expect(journal.text.contains("corrects <a id=\"to-je_\(creditPosition)_0\" href=\"#je_\(creditPosition)_0\">"))
        #expect(journal.text.contains(#"<tr id="je_\#(creditPosition)_0">"#))
        #expect(try browser.send("GET", "/journal?account=payer%3Aghost").status == 404)
        #expect(try browser.send("GET", "/journal?account=acme").status == 400)
        let usage = try browser.send("GET", "/usage?account=payer%3Aacme")
        #expect(usage.status == 200 && usage.text.contains(#"data-field="sources.grant.posted" data-value="100">0.1 credits <small>(100 mc)</small></td>"#), "\(usage.text)")
        #expect(usage.text.contains(#"data-field="sources.correction.posted" data-value="-40">-0.04 credits <small>(-40 mc)</small></td>"#))
        #expect(usage.text.contains(#"<th scope="row">Available</th>"#))
        #expect(try browser.send("GET", "/usage?account=payer%3Aghost").status == 404, "an unknown account, as on the API")
        #expect(usage.text.contains(#"<svg role="img" aria-labelledby="usage-api_requests-title usage-api_requests-desc""#))
        #expect(usage.text.contains("<figcaption id=\"charges-chart-caption\"><strong>Charges per month</strong>") && usage.text.contains(">credits</text>"),
                "a visible title and the unit")
        // Only the months the account existed in (it was created this month, at the test's clock).
        let month = UTCMonth(containing: h.clock.now).description
        #expect(usage.text.components(separatedBy: "<tr><td>").dropFirst().allSatisfy { $0.hasPrefix(month) }, "\(usage.text)")
        // An organization: its plan now, where it comes from, and its timelines.
        _ = try h.f.adminJSON(["org", "create", "--id", "school", "--name", "A School"])
        _ = try h.f.adminJSON(["org", "plan", "--org", "school", "--source", "staff", "--plan", "premium"])
        try h.f.settle()
        // The page judges the plan at the console's clock: an hour after the decision.
        h.clock.set(Timestamp(microseconds: Int64(Date().timeIntervalSince1970 * 1e6) + 3_600_000_000)!.iso8601)
        #expect(try browser.signIn("dave", password).status == 303)
        #expect(Poll.until(timeout: 10) { (try? browser.send("GET", "/?q=school").text.contains(#"href="/orgs/school""#)) == true })
        let org = try browser.send("GET", "/orgs/school")
        #expect(org.status == 200 && org.text.contains("<strong>premium</strong>, from staff"), "\(org.text)")
        #expect(org.text.contains("Staff decisions") && org.text.contains("<td>premium</td>"))
        // Why: every change with who made it and the reason, linked to its event; the next change.
        #expect(org.text.contains("<h2>Every change, newest first</h2>") && org.text.contains("<code>org.staff_plan_decided</code>")
                && org.text.contains("<td>checked by the tests</td>"), "\(org.text)")
        #expect(org.text.contains(#"<th scope="row">Next change</th><td>none</td>"#))
        #expect(try browser.send("GET", "/orgs/nowhere").status == 404)
        // Its App Store subscription says how it ended and what Apple said of it (docs/appstore.md, "Lifecycle").
        let bought = Timestamp(microseconds: h.clock.now.microseconds - 7_200_000_000)!
        _ = try h.f.append(AppStoreTransactionRecorded(orgID: "school", originalTransactionID: "7001", transactionID: "8001",
                                                       productID: "ai.screenrig.plus.monthly", plan: .plus, purchaseDate: bought,
                                                       expiresDate: Timestamp(microseconds: bought.microseconds + 30 * 86_400_000_000),
                                                       revocationDate: nil, signedDate: bought, environment: "Sandbox", personID: nil,
                                                       via: "SUBSCRIBED", expiredWhenRecorded: false, inAppOwnershipType: "FAMILY_SHARED",
                                                       offerType: 1, offerDiscountType: "FREE_TRIAL"),
                           stream: "appstore-sub-7001")
        _ = try h.f.append(AppStoreSubscriptionEnded(orgID: "school", originalTransactionID: "7001", reason: "REVOKE", signedDate: bought,
                                                     notificationUUID: "n1"), stream: "appstore-sub-7001")
        try h.f.settle()
        let ended = try browser.send("GET", "/orgs/school")
        #expect(ended.text.contains("<td>revoked</td>") && ended.text.contains("held through Family Sharing<br>offer: introductory (FREE_TRIAL)"),
                "\(ended.text)")

        let projections = try browser.send("GET", "/projections")
        #expect(projections.status == 200 && projections.text.contains("<td>billing</td>"))

        // A viewer reads timelines but not the auditor's pages.
        let viewerPassword = try h.addOperator("erin", role: "viewer")
        let viewer = h.browser()
        #expect(try viewer.signIn("erin", viewerPassword).status == 303)
        #expect(try viewer.send("GET", "/timeline?subject=payer%3Aacme").status == 200)
        for path in ["/corrections", "/corrections.csv", "/chain"] {
            let refused = try viewer.send("GET", path)
            #expect(refused.status == 403 && refused.text.contains("needs the role auditor"), "\(path)")
        }
    }
}
