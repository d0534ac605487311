import Foundation
import LedgerJSON
import Outbound
import WebhookSigning

extension StripeStandIn {
    /// Sends the delayed webhooks now, in the order they were held.
    public func flush() {
        state.withLock { s in
            s.outbox += s.held
            s.held.removeAll()
        }
        pump()
    }

    /// Every webhook sent and what it was answered, in the order sent.
    public var deliveries: [StripeStandInDelivery] { state.withLock { $0.deliveries } }
    /// The ids of the events whose webhooks were dropped.
    public var droppedEventIDs: [String] { state.withLock { $0.dropped } }
    /// How many webhooks are held until `flush()`.
    public var heldCount: Int { state.withLock { $0.held.count } }
    /// Whether nothing waits to be sent or is in flight (held ones aside).
    public var isIdle: Bool { state.withLock { $0.outbox.isEmpty && !$0.sending } }

    /// Sends the next webhook of the outbox unless one is in flight; its answer sends the
    /// next, so that webhooks leave one at a time, in order.
    func pump() {
        let next = state.withLock { s -> (StripeStandInState.Pending, StripeStandInEndpoint)? in
            guard !s.closed, !s.sending else { return nil }
            while !s.outbox.isEmpty {
                let pending = s.outbox.removeFirst()
                // An endpoint removed since is skipped; its secrets are those of now.
                guard let endpoint = s.endpoints.first(where: { $0.id == pending.endpointID }) else { continue }
                s.sending = true
                return (pending, endpoint)
            }
            return nil
        }
        guard let (pending, endpoint) = next else { return }
        let timestamp = Int64(configuration.clock().timeIntervalSince1970)
        let signature = WebhookSignature.value(timestamp: timestamp, body: pending.event.body, secrets: endpoint.secrets)
        let request = OutboundRequest(method: "POST", url: endpoint.url, headers: [
            (name: "Content-Type", value: "application/json; charset=utf-8"),
            (name: "Stripe-Signature", value: signature),
            (name: "User-Agent", value: "Stripe/1.0 (+stand-in)"),
        ], body: pending.event.body, timeout: configuration.deliveryTimeout)
        outbound.submit(request) { [weak self] result in
            guard let self else { return }
            var delivery = StripeStandInDelivery(eventID: pending.event.id, eventType: pending.event.type, endpointID: endpoint.id,
                                                 url: endpoint.url, signature: signature, status: nil, failure: nil)
            switch result {
            case .success(let response): delivery.status = response.status
            case .failure(let error): delivery.failure = error.description
            }
            state.withLock { s in
                s.deliveries.append(delivery)
                s.sending = false
            }
            // On the outbound thread: submitting the next does not block.
            pump()
        }
    }
}
