extension StripeStandIn {
    /// Sends the delayed webhooks now, in the order they were held.
    public func flush() {
        store.state.withLock { s in
            s.outbox += s.held
            s.held.removeAll()
        }
        store.pump()
    }

    /// Every webhook sent and what it was answered, in the order sent.
    public var deliveries: [StripeStandInDelivery] { store.state.withLock { $0.deliveries } }
    /// The ids of the events whose webhooks were dropped.
    public var droppedEventIDs: [String] { store.state.withLock { $0.dropped } }
    /// How many webhooks are held until `flush()`.
    public var heldCount: Int { store.state.withLock { $0.held.count } }
    /// Whether nothing waits to be sent or is in flight (held ones aside).
    public var isIdle: Bool { store.state.withLock { $0.outbox.isEmpty && !$0.sending } }
}
