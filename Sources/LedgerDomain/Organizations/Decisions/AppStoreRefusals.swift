extension Refusal.Code {
    /// The signed transaction or notification does not verify, or names what it may not
    /// (another app, a product that is not a plan, another environment): T7, N7.
    public static let appStoreTransactionInvalid = Refusal.Code("app_store_transaction_invalid")
    /// The transaction's `appAccountToken` is another organization's (T3, T7).
    public static let appStoreAccountMismatch = Refusal.Code("app_store_account_mismatch")
    /// The organization is not eligible for the education plan (T7).
    public static let educationNotEligible = Refusal.Code("education_not_eligible")
    /// The organization holds this plan, or a higher one, through another source (O10, T7).
    public static let appStorePlanConflict = Refusal.Code("app_store_plan_conflict")
    /// The organization is delegated to a reseller, which pays its plan (O3, T7).
    public static let billedByReseller = Refusal.Code("billed_by_reseller")
    /// The reader may see the organization but not act on it (T2: administrators only).
    public static let forbidden = Refusal.Code("forbidden")
}
