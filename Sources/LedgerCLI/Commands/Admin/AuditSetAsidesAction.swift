import LedgerJSON
import LedgerServices

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
        let setAsides = try session.answer(SetAsidesQuery()) ?? []
        var receipt = AdminReceipt()
        var items: [JSONValue] = []
        receipt.lines.append("events set aside: \(setAsides.count)")
        for s in setAsides {
            let who = s.operatorName ?? "unknown"
            items.append([
                "projection": .string(s.projection), "position": .integer(s.position),
                "event_type": .string(s.eventType), "error": .string(s.error),
                "set_aside_at": .integer(s.setAsideAt), "operator": .string(who),
                "reason": .string(s.reason ?? ""), "skipped": .bool(s.skipped),
            ])
            receipt.lines.append("position \(s.position) (\(s.eventType)) set aside for \(s.projection) at position \(s.setAsideAt) by \(who)\(s.skipped ? "" : " (not skipped yet)")")
            receipt.lines.append("  error: \(s.error)")
            receipt.lines.append("  why: \(s.reason ?? "")")
        }
        receipt.fields["set_asides"] = .array(items)
        return receipt
    }
}
