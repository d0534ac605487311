import LedgerDomain

/// The balance column a journal entry (or a hold) moves.
enum BillingBalanceColumn: String, CaseIterable {
    case creditPlan = "credit_plan", creditPurchase = "credit_purchase", creditGrant = "credit_grant"
    case correction, usagePosted = "usage_posted", holdPosted = "hold_posted", holdHeld = "hold_held"

    init(_ source: CreditSource) {
        switch source {
        case .plan: self = .creditPlan
        case .purchase: self = .creditPurchase
        case .grant: self = .creditGrant
        }
    }
}
