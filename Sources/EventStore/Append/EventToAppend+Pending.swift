import LedgerDomain

extension EventToAppend {
    /// The event a decider decided, with who did it.
    public init(_ pending: PendingEvent, metadata: EventMetadata) {
        self.init(stream: pending.stream, type: pending.type, data: pending.data, metadata: metadata,
                  occurredAt: pending.occurredAt, correctsPosition: pending.correctsPosition, idempotencyKey: pending.idempotencyKey)
    }
}
