import LedgerDomain
import Projections

extension ConsoleAct {
    /// The correction (J3), as `ledger admin correct` does it: `MoneyDecider.correct`,
    /// with its bound, expecting the pool stream's version it judged.
    static let correct = ConsoleAct(
        name: "correct", title: "Correct a journal entry",
        fields: [Field(name: "entry", label: "Journal entry", hint: "je_POSITION_INDEX"),
                 Field(name: "amount", label: "Amount in millicredits", hint: "negative reverses part of a credit")]
    ) { console, fields in
        guard let entry = JournalEntryID(fields["entry"] ?? "") else {
            throw Console.refusal("The journal entry is je_POSITION_INDEX, as the journal shows it.")
        }
        guard let amount = Millicredits(canonical: fields["amount"] ?? ""), amount.value != 0 else {
            throw Console.refusal("The amount is a non-zero integer of millicredits, such as -500.")
        }
        let billing = BillingReadModel(pool: console.pool)
        let version = try billing.entry(entry).map { try console.requireBillingCaughtUp(with: $0.pool.ownerStream) } ?? nil
        let original = try billing.entry(entry)
        do {
            return try MoneyDecider.correct(original, id: entry, amount: amount, reason: fields["reason"] ?? "", streamVersion: version)
        } catch let refusal as Refusal {
            throw Console.refusal(refusal.message)
        }
    }
}
