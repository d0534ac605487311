import Foundation
import HTTP
import LedgerJSON

extension AppStoreServerStandIn {
    /// The stand-in's own route, not Apple's, for `ledger dev`: `POST /standin/notifications`
    /// with `{"signedPayload": JWS, "drop": false}` sends the notification to the ledger's
    /// notification URL as Apple would (`deliver`), or drops it with `"drop": true`, and adds
    /// it to the notification history either way. It takes no token: the stand-in listens
    /// on loopback only, for a developer trying the recovery path.
    func developerRoutes(_ router: inout Router) {
        router.add("POST", "/standin/notifications") { [unowned self] request in
            guard let url = configuration.notificationURL else {
                return .json(["error": "this stand-in has no notification URL to deliver to"] as JSONValue, status: 409)
            }
            guard let body = try? JSONValue.parse(request.body), let jws = body["signedPayload"]?.stringValue,
                  AppStoreVerifierPayload.signedDate(of: jws) != nil else {
                return .json(["error": "the body must be {\"signedPayload\": <a notification's JWS>, \"drop\": true|false}"] as JSONValue,
                             status: 400)
            }
            let drop = body["drop"]?.boolValue ?? false
            // Apple knows every transaction it notifies about: later calls about it (a refund
            // request's consumption information, its status) find it.
            if let transaction = AppStoreVerifierPayload.signedTransaction(in: jws),
               let id = AppStoreVerifierPayload.payload(of: transaction)?["transactionId"]?.stringValue,
               !state.withLock({ $0.transactions.contains { $0.transactionID == id } }) {
                add(transaction: transaction)
            }
            switch deliver(notification: jws, to: url, dropping: drop) {
            case .answered(let status): return .json(["delivery": "answered", "status": .integer(Int64(status))] as JSONValue)
            case .dropped: return .json(["delivery": "dropped"] as JSONValue)
            case .unanswered: return .json(["delivery": "unanswered"] as JSONValue)
            }
        }
    }
}
