import EventStore

/// The event-type and stream catalogue: what kinds of events the log holds and which
/// streams exist, with counts and the positions where each starts and ends. Operators use
/// it to find their way around the log; it is also the smallest real projection, the one
/// the projector's and replay's own tests lean on.
public struct CatalogueProjection: Projection {
    public let name = "catalogue"
    public let version = 1
    public let tables = ["event_types", "streams"]

    public init() {}

    public var tablesSQL: [String] {
        [
            """
            CREATE TABLE event_types (
                type             text PRIMARY KEY,
                events           bigint NOT NULL,
                first_position   bigint NOT NULL,
                last_position    bigint NOT NULL,
                last_occurred_at timestamptz NOT NULL
            )
            """,
            """
            CREATE TABLE streams (
                stream           text PRIMARY KEY,
                category         text NOT NULL,
                version          bigint NOT NULL,
                events           bigint NOT NULL,
                first_position   bigint NOT NULL,
                last_position    bigint NOT NULL,
                last_type        text NOT NULL,
                last_occurred_at timestamptz NOT NULL
            )
            """,
            "CREATE INDEX streams_category_idx ON streams (category, stream)",
        ]
    }

    public func apply(_ event: RecordedEvent, in context: ProjectionContext) throws {
        let occurredAt = event.occurredAt.iso8601
        context.enqueue("""
            INSERT INTO event_types AS t (type, events, first_position, last_position, last_occurred_at)
            VALUES ($1, 1, $2, $2, $3)
            ON CONFLICT (type) DO UPDATE SET events = t.events + 1, last_position = excluded.last_position,
                last_occurred_at = excluded.last_occurred_at
            """, [event.type, event.position, occurredAt])
        context.enqueue("""
            INSERT INTO streams AS s (stream, category, version, events, first_position, last_position, last_type, last_occurred_at)
            VALUES ($1, $2, $3, 1, $4, $4, $5, $6)
            ON CONFLICT (stream) DO UPDATE SET version = excluded.version, events = s.events + 1,
                last_position = excluded.last_position, last_type = excluded.last_type,
                last_occurred_at = excluded.last_occurred_at
            """, [event.stream, Self.category(of: event.stream), event.streamVersion, event.position, event.type, occurredAt])
    }

    /// The part of a stream name before its first `-` (`project-42` → `project`).
    static func category(of stream: String) -> String {
        stream.firstIndex(of: "-").map { String(stream[..<$0]) } ?? stream
    }
}
