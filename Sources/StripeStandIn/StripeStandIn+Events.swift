import Foundation
import LedgerJSON

extension StripeStandIn {
    /// Delivery of the events recorded without a mode of their own (`.deliver` at first).
    public var deliveryMode: StripeDeliveryMode {
        get { store.state.withLock { $0.deliveryMode } }
        set { store.state.withLock { $0.deliveryMode = newValue } }
    }

    /// Records `draft` on `account` (the first by default) as an event and delivers it by
    /// `mode` (the standing `deliveryMode` when nil).
    @discardableResult
    public func record(_ draft: StripeEventDraft, account: String? = nil, mode: StripeDeliveryMode? = nil) -> StripeStandInEvent {
        record([draft], account: account, mode: mode)[0]
    }

    /// Records `drafts` on `account`, in order, and delivers them by `mode` (the standing
    /// `deliveryMode` when nil): together, so that `.reorder` sends them last first.
    @discardableResult
    public func record(_ drafts: [StripeEventDraft], account: String? = nil, mode: StripeDeliveryMode? = nil) -> [StripeStandInEvent] {
        let accountID = accountID(account)
        let livemode = configuration.accounts.first { $0.id == accountID }!.livemode
        let recorded = store.state.withLock { s -> [StripeStandInEvent] in
            let endpoints = s.endpoints.filter { $0.account == accountID }
            let events = drafts.map { draft in
                Self.event(draft, account: accountID, livemode: livemode, apiVersion: configuration.apiVersion,
                           pendingWebhooks: endpoints.count)
            }
            s.events += events
            let mode = mode ?? s.deliveryMode
            if mode == .drop {
                s.dropped += events.map(\.id)
                return events
            }
            var pending: [StripeStandInState.Pending] = []
            for event in mode == .reorder ? events.reversed() : events {
                for endpoint in endpoints {
                    pending.append(.init(event: event, endpointID: endpoint.id))
                    if mode == .duplicate { pending.append(.init(event: event, endpointID: endpoint.id)) }
                }
            }
            if mode == .delay { s.held += pending } else { s.outbox += pending }
            return events
        }
        store.pump()
        return recorded
    }

    /// Records an event of `type` about `object`, created now by the stand-in's clock.
    @discardableResult
    public func record(type: String, object: JSONValue, previousAttributes: JSONValue? = nil, account: String? = nil,
                       mode: StripeDeliveryMode? = nil) -> StripeStandInEvent {
        let now = Int64(configuration.clock().timeIntervalSince1970)
        return record(StripeEventDraft(type: type, object: object, previousAttributes: previousAttributes, created: now),
                      account: account, mode: mode)
    }

    /// The event object as Stripe writes it (`object: "event"`, `api_version`, `created`,
    /// `data.object` and `data.previous_attributes`, `livemode`, `pending_webhooks`,
    /// `request: {id, idempotency_key}`, `type`), and its body's bytes.
    static func event(_ draft: StripeEventDraft, account: String, livemode: Bool, apiVersion: String,
                      pendingWebhooks: Int) -> StripeStandInEvent {
        let id = StripeID.make("evt_")
        var data: [String: JSONValue] = ["object": draft.object]
        if let previous = draft.previousAttributes { data["previous_attributes"] = previous }
        let json: JSONValue = [
            "id": .string(id), "object": "event", "api_version": .string(apiVersion), "created": .integer(draft.created),
            "data": .object(data), "livemode": .bool(livemode), "pending_webhooks": .integer(Int64(pendingWebhooks)),
            "request": ["id": draft.requestID.map(JSONValue.string) ?? .null,
                        "idempotency_key": draft.idempotencyKey.map(JSONValue.string) ?? .null],
            "type": .string(draft.type),
        ]
        return StripeStandInEvent(id: id, type: draft.type, created: draft.created, account: account, json: json,
                                  body: json.compactBytes())
    }
}
