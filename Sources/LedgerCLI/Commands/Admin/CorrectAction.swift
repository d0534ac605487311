import LedgerDomain
import LedgerServices

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
        var receipt = AdminReceipt(events: try session.perform(CorrectAct(entry: entry, amount: amount, reason: reason)))
        if let original = try session.billing.entry(entry) {
            receipt.notes = ["correcting \(entry) (\(original.kind), \(original.amount) on \(original.accounts.joined(separator: ", ")))"]
            receipt.fields["corrects"] = [
                "entry_id": .string(entry.description), "kind": .string(original.kind),
                "amount": .string(original.amount.canonical), "accounts": .array(original.accounts.map { .string($0) }),
            ]
        }
        return receipt
    }
}
