import Crypto
import HTTP
import LedgerServices

/// T2: a write with the session cookie must come from the app's own origin and, for a
/// JWT session, carry the CSRF header that matches the session.
enum SameOrigin {
    static let csrfHeader = "X-CSRF-Token"

    static func check(_ request: HTTPRequest, session: SessionToken, origin: String) throws {
        if let given = request.headers["origin"] {
            guard given == origin else {
                throw Problem(status: 403, code: "cross_origin", detail: "requests must come from \(origin), not \(given)")
            }
        } else if request.headers["sec-fetch-site"] != "same-origin" {
            throw Problem(status: 403, code: "cross_origin",
                          detail: "the request names no Origin and is not same-origin (Sec-Fetch-Site)")
        }
        guard let expected = session.csrf, let sent = request.headers[csrfHeader], !expected.isEmpty,
              constantTimeEquals(Array(sent.utf8), Array(expected.utf8)) else {
            throw Problem(status: 403, code: "csrf_failed", detail: "the \(csrfHeader) header is missing or does not match the session")
        }
    }

}
