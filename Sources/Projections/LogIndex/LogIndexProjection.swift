import EventStore
import ProjectionEngine

/// The log's index (the projection `catalogue`, a name kept because it is its schema's,
/// `proj_catalogue`): what kinds of events the log holds and which
/// streams exist, with counts and the positions where each starts and ends. Operators use
/// it to find their way around the log; it is also the smallest real projection, the one
/// the projector's and replay's own tests lean on.
public struct LogIndexProjection: Projection {
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
            // Every batch rewrites the row of each stream it touches: room on the page keeps
            // those updates HOT (no new index entries), where a full page made every one
            // of them insert into both indexes and a replay spend a third of its time there.
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
            ) WITH (fillfactor = 50)
            """,
            "CREATE INDEX streams_category_idx ON streams (category, stream)",
        ]
    }

    public func apply(_ events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
        // Per type and per stream: what the batch adds, in first-seen order (by index into
        // the batch, so that tallying copies no event).
        struct Tally { var events: Int64 = 0; var first: Int64; var last: Int }
        var types: [String: Tally] = [:], typeOrder: [String] = []
        var streams: [String: Tally] = [:], streamOrder: [String] = []
        func count(_ key: String, at i: Int, in tallies: inout [String: Tally], order: inout [String]) {
            if let found = tallies.index(forKey: key) {
                tallies.values[found].events += 1
                tallies.values[found].last = i
            } else {
                order.append(key)
                tallies[key] = Tally(events: 1, first: events[i].position, last: i)
            }
        }
        for i in events.indices {
            count(events[i].type, at: i, in: &types, order: &typeOrder)
            count(events[i].stream, at: i, in: &streams, order: &streamOrder)
        }
        var typeRows = RowBuffer(columns: 5)
        for type in typeOrder {
            let t = types[type]!, last = events[t.last]
            typeRows.append([type, t.events, t.first, last.position, last.occurredAt.iso8601])
        }
        context.enqueue("""
            INSERT INTO event_types AS t (type, events, first_position, last_position, last_occurred_at)
            SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[], $5::timestamptz[])
            ON CONFLICT (type) DO UPDATE SET events = t.events + excluded.events, last_position = excluded.last_position,
                last_occurred_at = excluded.last_occurred_at
            """, rows: typeRows)
        var streamRows = RowBuffer(columns: 8)
        for stream in streamOrder {
            let s = streams[stream]!, last = events[s.last]
            streamRows.append([stream, Self.category(of: stream), last.streamVersion, s.events, s.first, last.position,
                               last.type, last.occurredAt.iso8601])
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
