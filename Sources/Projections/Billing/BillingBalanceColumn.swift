import LedgerDomain

/// The balance column a journal entry (or a hold) moves.
enum BillingBalanceColumn: String, CaseIterable {
    case creditPlan = "credit_plan", creditPurchase = "credit_purchase", creditGrant = "credit_grant"
    case correction, usagePosted = "usage_posted", holdPosted = "hold_posted", holdHeld = "hold_held"

    /// The column's place in `allCases`: a balance row's deltas are an array in that order.
    var ordinal: Int {
        switch self {
        case .creditPlan: 0
        case .creditPurchase: 1
        case .creditGrant: 2
        case .correction: 3
        case .usagePosted: 4
        case .holdPosted: 5
        case .holdHeld: 6
        }
    }

    /// A row's deltas before the batch adds to it.
    static let zeros = [Int128](repeating: 0, count: allCases.count)

    init(_ source: CreditSource) {
        switch source {
        case .plan: self = .creditPlan
        case .purchase: self = .creditPurchase
        case .grant: self = .creditGrant
        }
    }
}
