import EventStore
import LedgerDomain
import LedgerJSON

extension RecordedEvent {
    /// The data, parsed (null when it does not parse, which no expectation accepts).
    public var json: JSONValue { (try? data()) ?? .null }
    /// `kind:id` of the metadata's actor.
    public var actor: String? { (try? metadata())??.actor.description }
    public var reason: String? { (try? metadata())??.reason }
}

extension JSONValue {
    /// The `events` of a command's `--json` object.
    public var appended: [JSONValue] { self["events"]?.arrayValue ?? [] }
}

/// An instant from its RFC 3339 text (a test's literal).
public func t(_ iso: String) -> Timestamp { Timestamp(iso8601: iso)! }
