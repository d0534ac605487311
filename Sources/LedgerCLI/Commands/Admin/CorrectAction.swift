import API
import LedgerDomain

/// `ledger admin correct`: `entry.corrected` (J3): a new signed entry that names the
/// original, which stays unchanged; the event's `corrects_position` is the original's position.
struct CorrectAction: AdminAction {
    static let words = ["correct"]
    static let synopsis = "--entry je_POSITION_N --amount SIGNED"
    static let summary = "Post a correction of a journal entry (signed amount); --reason is recorded in the entry too."
    static let valued: Set<String> = ["entry", "amount"]

    let entry: JournalEntryID
    let amount: Millicredits

    init(_ options: AdminOptions) throws {
        let text = try options.arguments.require("entry")
        guard let entry = JournalEntryID(text) else {
            throw UsageError("--entry \(text.debugDescription) is not a journal entry id such as je_42_0")
        }
        self.entry = entry
        amount = try options.amount("amount", .nonZero)
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        guard let reason = session.identity?.reason else { throw UsageError("--reason is required") }
        try session.catchUp()
        var original = try session.billing.entry(entry)
        // The pool stream's version first, then the projection caught up past it: the
        // corrections read include every one recorded up to that version, and the append
        // expects it, so that a correction recorded meanwhile is never missed by the bound.
        var version: Int64?
        if let pool = original?.pool {
            version = try session.services.store.streamVersion(pool.ownerStream)
            try session.catchUp()
            original = try session.billing.entry(entry)
        }
        let decision = try session.decide {
            try MoneyDecider.correct(original, id: entry, amount: amount, reason: reason, streamVersion: version)
        }
        var receipt = AdminReceipt(events: try session.append(decision))
        if let original {
            receipt.notes = ["correcting \(entry) (\(original.kind), \(original.amount) on \(original.accounts.joined(separator: ", ")))"]
            receipt.fields["corrects"] = [
                "entry_id": .string(entry.description), "kind": .string(original.kind),
                "amount": .string(original.amount.canonical), "accounts": .array(original.accounts.map { .string($0) }),
            ]
        }
        return receipt
    }
}
