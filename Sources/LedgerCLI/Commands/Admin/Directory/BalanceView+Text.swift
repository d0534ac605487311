import LedgerDomain
import LedgerServices

extension BalanceView {
    /// The balance's figures, in credits with the millicredits beside: posted, held and, for
    /// a pool, available (a funded project's share has no `available` of its own, B3); then
    /// each other pool the account has figures on (credit left on a project's own pool after
    /// a payer funds it stays there, and is shown here).
    var lines: [String] {
        func line(_ label: String, _ b: PoolBalance) -> String {
            var text = "\(label) (\(b.scope)): posted \(Self.money(b.posted)), held \(Self.money(b.held))"
            if let available = b.available { text += ", available \(Self.money(available))" }
            return text
        }
        return [line("balance", current) + " at position \(position)"]
            + otherPools.map { "  " + line("earlier on the pool of \($0.payer.kind) \($0.payer.id)", $0) }
    }

    /// `1,212.23 credits (1212230 millicredits)`.
    static func money(_ m: Millicredits) -> String { "\(m.creditsText) (\(m.description) millicredits)" }
}
