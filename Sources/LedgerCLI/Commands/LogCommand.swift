import EventStore
import Foundation
import LedgerJSON
import LedgerServices
import Postgres

/// `ledger log`: a subject's timeline, straight from the event log.
public enum LogCommand: LedgerCommand {
    public static let name = "log"
    public static let summary = "Show a subject's timeline from the log: every event with actor, reason and causation, in order."
    public static let usage = """
        usage: ledger log (--stream NAME | --payer ID | --project ID | --org ID | --app ID)
                          [--type TYPE ...] [--after POSITION] [--limit N] [--json]

        Every event of the subject, oldest first, read from the event log itself: position,
        time recorded, type, stream and version, actor, reason, request, causation and
        correlation ids, the corrected position, and the data. A payer's timeline includes
        its keys'; a project's its usage, holds and keys; an organization's its App Store
        subscriptions'; an app's its purchases'. Related streams are found through the
        projections, so `ledger project` should be running.

          --type TYPE        only events of this type, or of every type starting with
                             TYPE when it ends in `*` (e.g. `credit.*`); repeatable
          --after POSITION   start after this position (to page on)
          --limit N          at most N events (default 100, at most 10000)
          --json             one JSON object per line

        When more events follow, the last line says how to read on. Exit status: 0; 1 when
        the subject does not exist (no event on its stream); 2 usage error. Uses DATABASE_URL.
        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: Set(TimelineSubject.options + ["type", "after", "limit"]), boolean: ["json"])
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument \(args.positionals[0])") }
        let subject = try TimelineSubject(args)
        let after = try args.position("after") ?? 0
        let limit = try args.value("limit").map { text -> Int in
            guard let n = Int(text), (1...10_000).contains(n) else { throw UsageError("--limit takes 1 to 10000, got \(text)") }
            return n
        } ?? 100
        let filter = TypeFilter(args.values("type"))
        let connections = try environment.databasePool(environment.databaseURL(), maximumConnections: 1)
        guard try subject.exists(connections: connections) else {
            FileHandle.standardError.write(Data("ledger log: there is no \(subject.description) (no event on its stream)\n".utf8))
            return 1
        }
        let streams = try subject.streams(connections: connections)
        var events: [RecordedEvent] = []
        var cursor = after
        try connections.read { conn in
            // Filtered types are skipped page by page; one match more than asked for says
            // whether more follow.
            while events.count <= limit {
                let page = try LogReader(conn).read(streams: streams, after: cursor, limit: limit + 1)
                events += page.filter { filter.matches($0.type) }
                guard let last = page.last, page.count > limit else { break }
                cursor = last.position
            }
        }
        let more = events.count > limit
        if more { events.removeLast(events.count - limit) }
        let json = args.flag("json")
        if events.isEmpty && !json { print("no events for \(subject.description) after position \(after)") }
        for event in events {
            print(json ? try Self.json(event).compactText() : try Self.text(event))
        }
        if more, let last = events.last {
            let hint = "more events follow: run the same command with --after \(last.position)"
            if json { FileHandle.standardError.write(Data((hint + "\n").utf8)) } else { print(hint) }
        }
        return 0
    }

    /// `--type`: exact types, and prefixes written `prefix*`.
    struct TypeFilter {
        var exact: Set<String> = []
        var prefixes: [String] = []
        init(_ values: [String]) {
            for v in values {
                if v.hasSuffix("*") { prefixes.append(String(v.dropLast())) } else { exact.insert(v) }
            }
        }
        func matches(_ type: String) -> Bool {
            (exact.isEmpty && prefixes.isEmpty) || exact.contains(type) || prefixes.contains { type.hasPrefix($0) }
        }
    }

    static func text(_ e: RecordedEvent) throws -> String {
        let metadata = try e.metadata()
        var head = "\(e.position)  \(e.recordedAt.iso8601)  \(e.type)  \(e.stream)@\(e.streamVersion)"
        if let m = metadata { head += "  by \(m.actor)" }
        var lines = [head]
        if let reason = metadata?.reason { lines.append("    why: \(reason)") }
        var ids: [String] = []
        if let c = e.correctsPosition { ids.append("corrects \(c)") }
        if let r = metadata?.requestID { ids.append("request \(r)") }
        if let c = metadata?.causationID { ids.append("caused by \(c)") }
        if let c = metadata?.correlationID { ids.append("correlation \(c)") }
        if e.occurredAt != e.recordedAt { ids.append("occurred \(e.occurredAt.iso8601)") }
        if !ids.isEmpty { lines.append("    " + ids.joined(separator: ", ")) }
        lines.append("    " + e.dataText)
        return lines.joined(separator: "\n")
    }

    static func json(_ e: RecordedEvent) throws -> JSONValue {
        var object: [String: JSONValue] = [
            "position": .integer(e.position), "event_id": .string(e.eventID.uuidString.lowercased()), "stream": .string(e.stream),
            "stream_version": .integer(e.streamVersion), "type": .string(e.type),
            "occurred_at": .string(e.occurredAt.iso8601), "recorded_at": .string(e.recordedAt.iso8601),
            "data": try e.data(), "metadata": try JSONValue.parse(e.metadataText),
        ]
        if let c = e.correctsPosition { object["corrects_position"] = .integer(c) }
        return .object(object)
    }
}
