import Projections

extension CorrectionRecord {
    /// The columns of a corrections export, in `ledger audit corrections --csv` and the
    /// console's alike.
    public static let csvHeader = ["position", "account", "correction_id", "corrects", "amount", "actor", "at", "reason"]

    /// The row, its free text made inert for spreadsheets (`CSV.text`).
    public var csvFields: [String] {
        [String(position), account, correctionID, corrects, amount.description, CSV.text(actor), at, CSV.text(reason)]
    }
}
