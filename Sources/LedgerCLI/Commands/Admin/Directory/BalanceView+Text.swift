import LedgerServices

extension BalanceView {
    /// The balance's figures on one line, in millicredits: posted, held and, for a pool,
    /// available; a funded project's share has no `available` of its own (B3).
    var lines: [String] {
        var line = "balance (\(current.scope)): posted \(current.posted), held \(current.held)"
        if let available = current.available { line += ", available \(available)" }
        return [line + " millicredits at position \(position)"]
    }
}
