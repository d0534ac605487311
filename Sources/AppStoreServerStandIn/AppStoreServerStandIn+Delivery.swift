import Foundation
import LedgerJSON
import Outbound

extension AppStoreServerStandIn {
    /// What became of one notification Apple tried to send.
    public enum Delivery: Sendable, Equatable {
        /// Sent, and answered with `status`.
        case answered(status: Int)
        /// Never sent: the stand-in dropped it, as an outage or a lost packet would.
        case dropped
        /// Sent, and no answer came (a refused connection, a timeout).
        case unanswered
    }

    /// Sends `jws` to `url` as Apple sends a Server Notification V2 (`POST` with
    /// `{"signedPayload": …}`), or drops it, and adds it to the notification history with
    /// the result Apple would record: `SUCCESS` for a 2xx, `UNSUCCESSFUL_HTTP_RESPONSE_CODE`
    /// for any other answer, `NO_RESPONSE` when nothing was answered or it was dropped. So
    /// the history holds what a ledger missed, as Apple's does, for the recovery path.
    @discardableResult
    public func deliver(notification jws: String, to url: String, dropping: Bool = false) -> Delivery {
        let delivery: Delivery
        if dropping {
            delivery = .dropped
        } else {
            let client = OutboundClient(policy: .development)
            defer { client.close() }
            let body = (["signedPayload": .string(jws)] as JSONValue).compactBytes()
            do {
                let response = try client.send(OutboundRequest(method: "POST", url: url, headers: [(name: "Content-Type", value: "application/json")],
                                                               body: body, timeout: 10))
                delivery = .answered(status: response.status)
            } catch {
                delivery = .unanswered
            }
        }
        let result: String
        switch delivery {
        case .answered(let status) where (200..<300).contains(status): result = "SUCCESS"
        case .answered: result = "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
        case .dropped, .unanswered: result = "NO_RESPONSE"
        }
        add(notification: jws, attempts: [result])
        return delivery
    }
}
