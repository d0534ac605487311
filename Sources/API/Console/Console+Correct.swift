import LedgerDomain
import LedgerServices

extension ConsoleAct {
    /// The correction (J3), `CorrectAct` as `ledger admin correct` runs it.
    static let correct = ConsoleAct(
        name: "correct", title: "Correct a journal entry",
        fields: [Field(name: "entry", label: "Journal entry", hint: "je_POSITION_INDEX"),
                 Field(name: "amount", label: "Amount in millicredits", hint: "negative reverses part of a credit")]
    ) { fields, reason in
        guard let entry = JournalEntryID(fields["entry"] ?? "") else {
            throw Console.refusal("The journal entry is je_POSITION_INDEX, as the journal shows it.")
        }
        guard let amount = Millicredits(canonical: fields["amount"] ?? ""), amount.value != 0 else {
            throw Console.refusal("The amount is a non-zero integer of millicredits, such as -500.")
        }
        return CorrectAct(entry: entry, amount: amount, reason: reason)
    }
}
