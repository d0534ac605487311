import LedgerDomain
import LedgerJSON
import LedgerServices
import Projections

/// Apple's refund requests on each subscription, and how the ledger answered them
/// (docs/appstore.md, "Refund requests").
extension OrgShowAction {
    static func withRefundRequests(_ subscription: JSONValue, _ requests: [OrganizationsReadModel.ConsumptionRequest],
                                   of original: String) -> JSONValue {
        guard case .object(var fields) = subscription else { return subscription }
        fields["refund_requests"] = .array(requests.filter { $0.request.originalTransactionID == original }.map(refundRequest))
        return .object(fields)
    }

    static func refundRequest(_ r: OrganizationsReadModel.ConsumptionRequest) -> JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return .object([
            "notification_uuid": .string(r.request.notificationUUID), "transaction_id": .string(r.request.transactionID),
            "requested_at": .string(r.request.signedDate.iso8601), "respond_by": .string(r.request.respondBy.iso8601),
            "outcome": text(r.outcome?.rawValue), "reason": text(r.reason), "detail": text(r.detail),
            "answered_at": text(r.answeredAt?.iso8601),
            "sent": r.information.flatMap { try? JSONValueEncoder().encode($0) } ?? .null,
        ])
    }

    static func refundRequestLines(_ requests: [OrganizationsReadModel.ConsumptionRequest], of original: String) -> [String] {
        requests.filter { $0.request.originalTransactionID == original }.map { r in
            let answer = r.outcome.map { "\($0.rawValue) (\(r.reason ?? "")) at \(r.answeredAt?.iso8601 ?? "?")" }
                ?? "not answered yet (respond by \(r.request.respondBy.iso8601))"
            let sent = r.information.map { i in
                "; sent accountTenure \(i.accountTenure), userStatus \(i.userStatus), lifetimeDollarsRefunded \(i.lifetimeDollarsRefunded), refundPreference \(i.refundPreference)"
            } ?? ""
            return "  refund request \(r.request.notificationUUID) for transaction \(r.request.transactionID), \(r.request.signedDate.iso8601): \(answer)\(sent)"
        }
    }
}
