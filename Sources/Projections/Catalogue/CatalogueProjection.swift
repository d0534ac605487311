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

    public func apply(_ events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
        // Per type and per stream: what the batch adds, in first-seen order.
        struct Tally { var events: Int64 = 0; var first: Int64; var last: RecordedEvent }
        var types: [String: Tally] = [:], typeOrder: [String] = []
        var streams: [String: Tally] = [:], streamOrder: [String] = []
        for event in events {
            if types[event.type] == nil { typeOrder.append(event.type) }
            types[event.type, default: Tally(first: event.position, last: event)].events += 1
            types[event.type]!.last = event
            if streams[event.stream] == nil { streamOrder.append(event.stream) }
            streams[event.stream, default: Tally(first: event.position, last: event)].events += 1
            streams[event.stream]!.last = event
        }
        var typeRows = RowBuffer(columns: 5)
        for type in typeOrder {
            let t = types[type]!
            typeRows.append([type, t.events, t.first, t.last.position, t.last.occurredAt.iso8601])
        }
        context.enqueue("""
            INSERT INTO event_types AS t (type, events, first_position, last_position, last_occurred_at)
            SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[], $5::timestamptz[])
            ON CONFLICT (type) DO UPDATE SET events = t.events + excluded.events, last_position = excluded.last_position,
                last_occurred_at = excluded.last_occurred_at
            """, rows: typeRows)
        var streamRows = RowBuffer(columns: 8)
        for stream in streamOrder {
            let s = streams[stream]!
            streamRows.append([stream, Self.category(of: stream), s.last.streamVersion, s.events, s.first, s.last.position,
                               s.last.type, s.last.occurredAt.iso8601])
        }
        context.enqueue("""
            INSERT INTO streams AS s (stream, category, version, events, first_position, last_position, last_type, last_occurred_at)
            SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::text[],
                                 $8::timestamptz[])
            ON CONFLICT (stream) DO UPDATE SET version = excluded.version, events = s.events + excluded.events,
                last_position = excluded.last_position, last_type = excluded.last_type,
                last_occurred_at = excluded.last_occurred_at
            """, rows: streamRows)
    }

    /// The part of a stream name before its first `-` (`project-42` → `project`).
    static func category(of stream: String) -> String {
        stream.firstIndex(of: "-").map { String(stream[..<$0]) } ?? stream
    }
}
