import Foundation
import Synchronization

/// What the server knows about one request while libmicrohttpd delivers it in pieces.
///
/// Created in the URI-log callback (request line received), reached through the
/// request's `void **` context, and released when libmicrohttpd reports the request
/// finished. The connection's network thread owns every plain field; a worker hands the
/// answer back through `handoff`.
final class RequestState: @unchecked Sendable {
    enum Phase {
        /// The request line is in; header fields are still arriving.
        case awaitingHeaders
        /// Headers checked; body arriving (possibly empty).
        case receivingBody
        /// Complete and handed to a worker (or waiting for a projection); the connection
        /// is suspended until the answer is in `handoff`.
        case dispatched
        /// A response has been queued (or written directly).
        case answered
    }

    /// What a worker leaves for the network thread when it resumes the connection.
    struct Handoff {
        var outcome: Router.Outcome?
        /// The wait this request is parked on, if any; claimed once, by the wake-up, the
        /// deadline or shutdown, whichever comes first.
        var parked: ParkedWait?
    }

    struct ParkedWait {
        var deadline: ContinuousClock.Instant
        var deferral: HTTPDeferral
        var route: String
        var cancel: HTTPDeferral.Cancel?
    }

    let started = ContinuousClock.now
    let receivedAt = Date()
    /// The request target as received (`/path?query`).
    let rawTarget: String
    let connection: ConnectionRecord
    var phase = Phase.awaitingHeaders
    var method = "UNKNOWN"
    var version = ""
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
    /// The client this request counts against while it is dispatched (see `ClientAdmission`).
    var admittedClient: String?
    /// The path errors are rendered for (the surface's error shape).
    var path: String { target?.path ?? pathForLog }
    let handoff = Mutex(Handoff())
    /// When the request was handed to a worker, and how long it waited for one or for a
    /// projection, for the log line.
    var dispatchedAt: ContinuousClock.Instant?
    let waited = Mutex(Duration.zero)

    init(rawTarget: String, connection: ConnectionRecord) {
        self.rawTarget = rawTarget
        self.connection = connection
    }

    /// The decoded path for logs (never the query), or the raw path when it does not decode.
    var pathForLog: String {
        if let target { return target.path }
        return String(rawTarget.prefix { $0 != "?" })
    }
}
