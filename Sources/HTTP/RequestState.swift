import Foundation

/// What the server knows about one request while libmicrohttpd delivers it in pieces.
///
/// Created in the URI-log callback (request line received), reached through the
/// request's `void **` context, and released when libmicrohttpd reports the request
/// finished. Only the connection's own worker thread touches it.
final class RequestState {
    enum Phase {
        /// The request line is in; header fields are still arriving.
        case awaitingHeaders
        /// Headers checked; body arriving (possibly empty).
        case receivingBody
        /// A response has been queued (or written directly).
        case answered
    }

    let started = ContinuousClock.now
    let receivedAt = Date()
    /// The request target as received (`/path?query`).
    let rawTarget: String
    var phase = Phase.awaitingHeaders
    var method = "UNKNOWN"
    var headers = HTTPHeaders()
    var requestID = RequestID.generate()
    var remoteAddress = ""
    var target: RequestTarget?
    var body: [UInt8] = []
    /// Body bytes received, including any discarded after the limit was passed.
    var bytesIn = 0
    /// The body passed `maxBodyBytes`; it is drained, not kept.
    var bodyTooLarge = false
    var status: Int?
    var bytesOut = 0
    var route: String?

    init(rawTarget: String) {
        self.rawTarget = rawTarget
    }

    /// The decoded path for logs (never the query), or the raw path when it does not decode.
    var pathForLog: String {
        if let target { return target.path }
        return String(rawTarget.prefix { $0 != "?" })
    }
}
