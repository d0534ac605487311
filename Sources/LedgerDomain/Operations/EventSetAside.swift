/// `projection.event_set_aside`, on `projection-<name>`: an operator sets aside, for one
/// projection, the event it stopped on (a poison event: one its fold cannot apply, which
/// is a bug). The projection skips that event, records that it did, and goes on; a
/// replay of the same log skips it too, so it gives the same rows. The event itself stays
/// in the log, unchanged, for the other projections and for auditors.
public struct EventSetAside: DomainEvent {
    public static let type = "projection.event_set_aside"
    public var projection: String
    public var position: Int64
    /// The set-aside event's type, and the error the projection stopped with.
    public var eventType: String
    public var error: String
    enum CodingKeys: String, CodingKey { case projection, position, eventType = "event_type", error }
    public init(projection: String, position: Int64, eventType: String, error: String) {
        self.projection = projection
        self.position = position
        self.eventType = eventType
        self.error = error
    }
}
