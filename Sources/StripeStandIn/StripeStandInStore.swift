import Foundation
import Outbound
import Synchronization
import WebhookSigning

/// The stand-in's state and its webhooks' sender. Apart from `StripeStandIn` so that the
/// answer to a delivery (handled on the outbound client's thread) holds this, never the
/// stand-in: the stand-in's last reference, and so its `stop()`, is never on that thread,
/// which `OutboundClient.close()` waits for.
final class StripeStandInStore: Sendable {
    let state = Mutex(StripeStandInState())
    private let outbound = OutboundClient(policy: .development)
    private let clock: @Sendable () -> Date
    private let deliveryTimeout: Double

    init(clock: @escaping @Sendable () -> Date, deliveryTimeout: Double) {
        self.clock = clock
        self.deliveryTimeout = deliveryTimeout
    }

    /// Sends nothing more; what is in flight finishes. Idempotent.
    func close() {
        let first = state.withLock { s -> Bool in
            defer { s.closed = true }
            s.outbox.removeAll()
            s.held.removeAll()
            return !s.closed
        }
        if first { outbound.close() }
    }

    /// Sends the next webhook of the outbox unless one is in flight; its answer sends the
    /// next, so that webhooks leave one at a time, in order. Each is signed as it leaves,
    /// with its endpoint's secrets then and the clock's time.
    func pump() {
        let next = state.withLock { s -> (StripeStandInState.Pending, StripeStandInEndpoint)? in
            guard !s.closed, !s.sending else { return nil }
            while !s.outbox.isEmpty {
                let pending = s.outbox.removeFirst()
                // An endpoint removed since is skipped.
                guard let endpoint = s.endpoints.first(where: { $0.id == pending.endpointID }) else { continue }
                s.sending = true
                return (pending, endpoint)
            }
            return nil
        }
        guard let (pending, endpoint) = next else { return }
        let timestamp = Int64(clock().timeIntervalSince1970)
        let signature = WebhookSignature.value(timestamp: timestamp, body: pending.event.body, secrets: endpoint.secrets)
        let request = OutboundRequest(method: "POST", url: endpoint.url, headers: [
            (name: "Content-Type", value: "application/json; charset=utf-8"),
            (name: "Stripe-Signature", value: signature),
            (name: "User-Agent", value: "Stripe/1.0 (stand-in)"),
        ], body: pending.event.body, timeout: deliveryTimeout)
        outbound.submit(request) { [self] result in
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
