import Crypto
import EventStore
import LedgerJSON
import LedgerServices
import Postgres

extension ExportCommand {
    static let eventColumns = RecordedEvent.archiveFields

    /// A segment of the log with what re-verifying its chain needs: `data` and `metadata`
    /// exactly as the hash covers them (the text PostgreSQL prints for the `jsonb`, as a
    /// string), and both hashes in hex.
    static func events(_ args: Arguments, format: Format, connections: PostgresPool, to output: ExportOutput) throws -> String {
        let after = try args.position("after") ?? 0
        return try connections.read { conn in
            let through = try args.position("through") ?? LogReader(conn).headPosition()
            guard through >= after else { throw UsageError("--through must not be before --after") }
            if format == .csv { try output.line(CSV.line(eventColumns)) }
            let bar = ProgressBar(label: "events")
            var cursor = after
            var first: RecordedEvent?
            var last: RecordedEvent?
            while cursor < through {
                let page = try LogReader(conn).read(after: cursor, limit: Int(min(10_000, through - cursor)))
                guard let end = page.last else { break }
                for event in page {
                    if format == .csv {
                        let cells: [String?] = [String(event.position), event.eventID.uuidString.lowercased(), event.stream,
                                                String(event.streamVersion), event.type, event.occurredAt.iso8601, event.recordedAt.iso8601,
                                                event.correctsPosition.map(String.init), event.idempotencyKey, event.dataText,
                                                event.metadataText, Hex.encode(event.prevHash), Hex.encode(event.hash)]
                        try output.line(CSV.line(cells.map { $0 ?? "" }))
                    } else {
                        try output.line(event.archiveLine)
                    }
                }
                first = first ?? page.first
                last = end
                cursor = end.position
                bar.update(done: cursor - after, total: through - after)
            }
            bar.finish()
            guard let first, let last else { return "exported no events: the log has none after position \(after)" }
            return "exported events \(first.position) to \(last.position): prev_hash \(Hex.encode(first.prevHash)) (the hash of position \(after)), head hash \(Hex.encode(last.hash))"
        }
    }
}
