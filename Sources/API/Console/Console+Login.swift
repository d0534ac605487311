import Crypto
import HTTP
import LedgerDomain

extension Console {
    static let loginCookie = "ledger_console_login"

    /// The login form. A cookie of its own carries a random nonce from which the form's
    /// token is derived: a page of another site cannot post a login (login CSRF).
    func loginPage(_ request: HTTPRequest, error: String? = nil, status: Int = 200) -> HTTPResponse {
        let nonce = Self.cookie(Self.loginCookie, in: request).flatMap { Base64URL.decode($0)?.count == 16 ? $0 : nil }
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
        let cookie = Self.setCookie(Self.loginCookie, nonce, maxAge: 3600)
        response.headers.add(name: cookie.0, value: cookie.1)
        return response
    }

    func login(_ request: HTTPRequest) throws -> HTTPResponse {
        let fields = try request.formFields()
        guard let nonce = Self.cookie(Self.loginCookie, in: request), let token = fields["csrf"],
              constantTimeEquals(Array(token.utf8), Array(loginToken(nonce).utf8)) else {
            return loginPage(request, error: "The form expired or came from elsewhere: sign in again.", status: 403)
        }
        let name = fields["name"] ?? "", password = fields["password"] ?? ""
        let now = settings.now()
        guard settings.lockout.allows(name: name, address: request.remoteAddress, now: now) else {
            var response = loginPage(request, error: "Too many failed sign-ins: try again in 15 minutes.", status: 429)
            response.headers.add(name: "Retry-After", value: "900")
            return response
        }
        guard let state = try operators.authenticate(name: name, password: password) else {
            settings.lockout.recordFailure(name: name, address: request.remoteAddress, now: now)
            return loginPage(request, error: "The name or the password is wrong, or the operator is disabled.", status: 401)
        }
        settings.lockout.recordSuccess(name: name)
        let session = ConsoleSession(operatorName: state.name, credential: state.credential, issuedAt: Int64(now))
        return Self.redirect("/", cookies: [Self.setCookie(ConsoleSession.cookieName, session.cookieValue(secret: settings.secret),
                                                           maxAge: ConsoleSession.lifetime),
                                            Self.setCookie(Self.loginCookie, "", maxAge: 0)])
    }

    func logout(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let viewer = try viewer(request) else { return Self.redirect("/login") }
        _ = try form(request, of: viewer)
        return Self.redirect("/login", cookies: [Self.setCookie(ConsoleSession.cookieName, "", maxAge: 0)])
    }

    private func loginToken(_ nonce: String) -> String {
        Base64URL.encode(HMAC.sha256(key: settings.secret, data: Array("login\n\(nonce)".utf8)))
    }
}
