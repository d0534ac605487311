import HTTP
import LedgerJSON

extension StripeStandIn {
    /// `POST /standin/events` (`ledger dev`'s, no key: the stand-in listens on loopback
    /// only): `{"type": "…", "object": {…}, "drop": false}` records an event of `type`
    /// about `object`, created now, and delivers it to every endpoint, or drops it (only
    /// `GET /v1/events` then has it). Answers `{"id": "evt_…", "delivered": bool}`.
    func developerRoutes(_ router: inout Router) {
        router.add("POST", "/standin/events") { [unowned self] request in
            guard let body = try? JSONValue.parse(request.body), let type = body["type"]?.stringValue, !type.isEmpty,
                  let object = body["object"], object.objectValue != nil else {
                return Self.stripeError(400, type: "invalid_request_error",
                                        message: "send {\"type\": \"invoice.paid\", \"object\": {…}, \"drop\": false}")
            }
            let drop = body["drop"]?.boolValue ?? false
            let event = record(type: type, object: object, mode: drop ? .drop : .deliver)
            return .json(["id": .string(event.id), "delivered": .bool(!drop)] as JSONValue)
        }
    }
}
