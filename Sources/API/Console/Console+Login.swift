import Crypto
import HTTP
import LedgerDomain

extension Console {
    /// The login form. A cookie of its own carries a random nonce from which the form's
    /// token is derived: a page of another site cannot post a login (login CSRF).
    func loginPage(_ request: HTTPRequest, error: String? = nil, status: Int = 200) -> HTTPResponse {
        let nonce = Self.cookie(settings.loginCookie, in: request).flatMap { Base64URL.decode($0)?.count == 16 ? $0 : nil }
            ?? Base64URL.encode(SecureRandom.bytes(16))
        let alert = error.map { "<p class=\"error\" role=\"alert\">\(HTML.escape($0))</p>" } ?? ""
        var response = HTML.page(title: "Sign in", body: """
            \(alert)
            <form method="post" action="/login">
            <input type="hidden" name="csrf" value="\(HTML.escape(loginToken(nonce)))">
            <label for="name">Operator name</label><input id="name" name="name" autocomplete="username" required autofocus>
            <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
            <p><button type="submit">Sign in</button></p>
            </form>
            """, status: status)
        let cookie = Self.setCookie(settings.loginCookie, nonce, maxAge: 3600)
        response.headers.add(name: cookie.0, value: cookie.1)
        return response
    }

    func login(_ request: HTTPRequest) throws -> HTTPResponse {
        let fields = try request.formFields()
        guard let nonce = Self.cookie(settings.loginCookie, in: request), let token = fields["csrf"],
              constantTimeEquals(Array(token.utf8), Array(loginToken(nonce).utf8)) else {
            return loginPage(request, error: "The form expired or came from elsewhere: sign in again.", status: 403)
        }
        let name = fields["name"] ?? "", password = fields["password"] ?? ""
        let now = settings.now().seconds
        // Counted before the password is checked (ConsoleLockout): a burst of concurrent
        // wrong passwords is held to the limit, not to the limit plus what was in flight.
        let attempt: ConsoleLockout.Attempt
        switch settings.lockout.admit(name: name, address: request.remoteAddress, now: now) {
        case .allowed(let admitted):
            attempt = admitted
        case .refused(let seconds):
            var response = loginPage(request, error: "Too many failed sign-ins from here: try again in \(Self.duration(seconds)).", status: 429)
            response.headers.add(name: "Retry-After", value: String(seconds))
            return response
        }
        guard let state = try operators.authenticate(name: name, password: password) else {
            return loginPage(request, error: "The name or the password is wrong, or the operator is disabled.", status: 401)
        }
        settings.lockout.succeeded(attempt)
        let opened = try sessions.open(operator: state.name, credential: state.credential, epoch: state.sessionEpoch,
                                       now: Int64(now * 1_000_000), lifetime: settings.sessionLifetime,
                                       address: request.remoteAddress, userAgent: request.headers["user-agent"] ?? "")
        return Self.redirect("/", cookies: [Self.setCookie(settings.sessionCookie, opened.token, maxAge: Int64(settings.sessionLifetime)),
                                            Self.setCookie(settings.loginCookie, "", maxAge: 0)])
    }

    /// Signing out ends the session for every copy of its cookie, not only this browser's.
    func logout(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let viewer = try viewer(request) else { return Self.redirect("/login") }
        _ = try form(request, of: viewer)
        try sessions.end(viewer.session.id, reason: "signed out", now: settings.now().microseconds)
        return Self.redirect("/login", cookies: [Self.setCookie(settings.sessionCookie, "", maxAge: 0)])
    }

    /// "15 minutes", "40 seconds".
    static func duration(_ seconds: Int) -> String {
        seconds >= 120 ? "\((seconds + 59) / 60) minutes" : "\(seconds) second\(seconds == 1 ? "" : "s")"
    }

    private func loginToken(_ nonce: String) -> String {
        Base64URL.encode(HMAC.sha256(key: settings.secret, data: Array("login\n\(nonce)".utf8)))
    }
}
