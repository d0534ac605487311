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

extension [CorrectionRecord] {
    /// The corrections as CSV, header first: one export for `ledger audit corrections --csv`
    /// and the console's, so that the two files are the same bytes.
    public var csvLines: [String] { CSV.lines(header: CorrectionRecord.csvHeader, map(\.csvFields)) }
}
