/// The App Store product of each plan (O6); a product that is none of them is not a plan.
public struct AppStoreProducts: Sendable, Hashable {
    public var byPlan: [Plan: String]

    public init(_ byPlan: [Plan: String]) { self.byPlan = byPlan }

    /// The plan a product stands for, if it is one.
    public func plan(ofProduct productID: String) -> Plan? {
        byPlan.first { $0.value == productID }?.key
    }
}
