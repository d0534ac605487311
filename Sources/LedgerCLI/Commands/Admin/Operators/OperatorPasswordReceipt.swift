import LedgerJSON

/// What `operator add` and `operator reset` print: the events, and the password once.
enum OperatorPasswordReceipt {
    static let warning = "this is the only time the password is shown: the ledger keeps only its scrypt hash"

    static func make(_ appended: [AppendedRecord], name: String, password: String) -> AdminReceipt {
        var receipt = AdminReceipt(events: appended)
        if appended.contains(where: { $0.alreadyRecorded }) {
            receipt.notes = ["recorded by an earlier run, whose password stands; `ledger admin operator reset --name \(name)` makes a new one"]
            return receipt
        }
        receipt.fields["password"] = .string(password)
        receipt.fields["warning"] = .string(warning)
        receipt.lines = ["", "console password of \(name):", "  \(password)", "warning: \(warning)"]
        return receipt
    }
}
