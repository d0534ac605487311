/// Who holds an App Store subscription's plan, as its transaction's `inAppOwnershipType`
/// says: the subscriber who bought it, or a member of their family through Family Sharing
/// (docs/appstore.md, "Lifecycle").
public enum AppStoreOwnership: String, Sendable, Hashable, CaseIterable {
    /// `PURCHASED`: the transaction's own buyer holds the plan.
    case purchased
    /// `FAMILY_SHARED`: a family member's purchase, shared through Family Sharing.
    case familyShared = "family_shared"

    /// Apple's value (`PURCHASED`, `FAMILY_SHARED`); nil for anything else.
    public init?(apple value: String) {
        switch value {
        case "PURCHASED": self = .purchased
        case "FAMILY_SHARED": self = .familyShared
        default: return nil
        }
    }
}
