import LedgerDomain
import LedgerServices

extension ConsoleAct {
    /// A credit (J4: credit enters through operators and rails only), `CreditAct` as
    /// `ledger admin credit` runs it.
    static let credit = ConsoleAct(
        name: "credit", title: "Post credit",
        fields: [Field(name: "pool", label: "Account", hint: "payer:ID or project:ID"),
                 Field(name: "source", label: "Source", hint: CreditSource.allCases.map(\.rawValue).joined(separator: ", ")),
                 Field(name: "amount", label: "Amount in millicredits", hint: "positive"),
                 Field(name: "description", label: "Description", hint: "shown on the journal")]
    ) { fields, _ in
        guard let pool = Pool(fields["pool"] ?? "") else { throw Console.refusal("The account is payer:ID or project:ID.") }
        guard let source = CreditSource(rawValue: fields["source"] ?? "") else {
            throw Console.refusal("The source is one of \(CreditSource.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        guard let amount = Millicredits(canonical: fields["amount"] ?? ""), amount.value > 0 else {
            throw Console.refusal("The amount is a positive integer of millicredits, such as 5000.")
        }
        let description = (fields["description"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !description.isEmpty, description.utf8.count <= 500 else { throw Console.refusal("A description is required (at most 500 bytes).") }
        return CreditAct(pool: pool, source: source, amount: amount, description: description)
    }
}
