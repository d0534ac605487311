import EventStore
import LedgerDomain
import LedgerJSON
import ProjectionEngine
import Projections

/// `ledger audit set-asides`: every event an operator set aside, for which projection,
/// who did it, why, and whether the projection has skipped it yet.
struct AuditSetAsidesAction: AdminAction {
    static let words = ["set-asides"]
    static let synopsis = ""
    static let summary = "List the events set aside for a projection: position, type, the error, who and why, and where it was skipped."
    static let valued: Set<String> = []
    static let isOperatorAct = false

    init(_ options: AdminOptions) throws {}

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let (recorded, skipped) = try session.pool.read { conn -> ([RecordedEvent], [String: [ProjectionSchema.SkippedEvent]]) in
            let events = try LogReader(conn).events(ofType: EventSetAside.type)
            var skipped: [String: [ProjectionSchema.SkippedEvent]] = [:]
            for projection in AllProjections.all { skipped[projection.name] = try ProjectionSchema.skippedEvents(projection.schema, on: conn) }
            return (events, skipped)
        }
        var receipt = AdminReceipt()
        var items: [JSONValue] = []
        receipt.lines.append("events set aside: \(recorded.count)")
        for event in recorded {
            let setAside = try event.decode(EventSetAside.self)
            let metadata = try event.metadata()
            let done = skipped[setAside.projection]?.contains { $0.position == setAside.position } ?? false
            items.append([
                "projection": .string(setAside.projection), "position": .integer(setAside.position),
                "event_type": .string(setAside.eventType), "error": .string(setAside.error),
                "set_aside_at": .integer(event.position), "operator": .string(metadata?.actor.id ?? "unknown"),
                "reason": .string(metadata?.reason ?? ""), "skipped": .bool(done),
            ])
            receipt.lines.append("position \(setAside.position) (\(setAside.eventType)) set aside for \(setAside.projection) at position \(event.position) by \(metadata?.actor.id ?? "unknown")\(done ? "" : " (not skipped yet)")")
            receipt.lines.append("  error: \(setAside.error)")
            receipt.lines.append("  why: \(metadata?.reason ?? "")")
        }
        receipt.fields["set_asides"] = .array(items)
        return receipt
    }
}
