import API
import LedgerJSON

extension BillingReport {
    /// A balance's figures on one line each, in millicredits: posted, held and, for a
    /// pool, available; a funded project's share has no `available` of its own (B3).
    static func balanceLines(_ balance: JSONValue?) -> [String] {
        guard case .object(let b)? = balance else { return [] }
        func figure(_ name: String) -> String? {
            switch b[name] {
            case .integer(let n)?: return String(n)
            case .string(let s)?, .decimal(let s)?: return s
            default: return nil
            }
        }
        var line = "balance (\(figure("scope") ?? "?")): posted \(figure("posted") ?? "?"), held \(figure("held") ?? "?")"
        if let available = figure("available") { line += ", available \(available)" }
        return [line + " millicredits at position \(figure("position") ?? "?")"]
    }
}
