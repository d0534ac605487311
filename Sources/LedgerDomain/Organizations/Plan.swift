/// A plan an organization can hold. Decision (spec O): free 0 < plus 1 < education 2 =
/// premium 2; education is premium's features at an education price, in the same
/// App Store subscription group.
public enum Plan: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case free, plus, education, premium

    public var level: Int {
        switch self {
        case .free: return 0
        case .plus: return 1
        case .education, .premium: return 2
        }
    }

    /// The plans sold through the App Store (O6), in the order the offer lists them.
    public static let purchasable: [Plan] = [.plus, .education, .premium]

    public static func < (a: Plan, b: Plan) -> Bool {
        a.level != b.level ? a.level < b.level : a.rawValue < b.rawValue
    }
}

/// Where a plan comes from.
public enum PlanSource: String, Sendable, Hashable, Codable, CaseIterable {
    case staff, billing
    case appStore = "app_store"
}
