import Foundation
import HTTP
import LedgerServices

extension SessionToken {
    /// The session of a request: from its `session` cookie.
    static func from(_ request: HTTPRequest, secret: [UInt8], now: Int64) -> SessionToken? {
        for header in request.headers.values(for: "cookie") {
            for pair in header.split(separator: ";") {
                let kv = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if kv.count == 2, kv[0] == cookieName { return verify(kv[1], secret: secret, now: now) }
            }
        }
        return nil
    }
}
