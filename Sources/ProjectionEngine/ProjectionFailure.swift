/// A projection stopped on an event it could not apply (a poison event).
public struct ProjectionFailure: Error, Sendable, CustomStringConvertible {
    public var code: String { "projection_failed" }
    public var projection: String
    public var position: Int64
    public var eventType: String
    public var message: String

    public var description: String {
        "projection \(projection) stopped at position \(position) (\(eventType)): \(message)"
    }
}

/// What a projection throws for an event whose content it cannot accept.
public struct ProjectionError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
