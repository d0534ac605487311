import LedgerDomain
import Projections

/// An operator's act on a subscription's deliveries, judged on the webhooks projection
/// once it has applied the whole log: one delivery sent again, or every delivery from a
/// sequence on.
public struct WebhookDeliveryAct: LedgerAct {
    public enum Change: Sendable {
        case retry(sequence: Int64)
        case replay(from: Int64)
    }

    public var id: String
    public var change: Change

    public init(id: String, _ change: Change) {
        self.id = id
        self.change = change
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        try reads.requireAtHead(WebhooksProjection())
        let model = WebhooksReadModel(connections: reads.connections)
        switch change {
        case .retry(let sequence):
            let status = try model.deliveryStatus(webhook: id, sequence: sequence)
            return try WebhookDeliveryDecider.retry(webhook: id, sequence: sequence, status: status)
        case .replay(let from):
            let active = try model.subscriptions(id: id).first?.active ?? false
            return try WebhookDeliveryDecider.replay(webhook: id, from: from, last: try model.lastSequence(webhook: id), active: active)
        }
    }
}
