import LedgerDomain

extension AppendRequest {
    /// The append that carries out `decision`, every event with `metadata`.
    public init(_ decision: Decision, metadata: EventMetadata) {
        self.init(events: decision.events.map { EventToAppend($0, metadata: metadata) },
                  expectedVersions: decision.expectedVersions, idempotencyKey: decision.idempotencyKey)
    }
}
