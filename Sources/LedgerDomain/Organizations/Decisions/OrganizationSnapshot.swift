import Foundation

/// An organization as the App Store rules (O, T, N) judge it, read from the organizations
/// projection: its administrators, delegation, education decisions, plan changes by
/// source and App Store subscriptions.
public struct OrganizationSnapshot: Sendable {
    public var id: String
    public var accountToken: UUID?
    public var resellerID: String?
    /// O9: a staff decision, final either way.
    public var staffEducation: Bool?
    /// O8: the school domain that made it eligible automatically, once.
    public var autoEducationDomain: String?
    public var admins: Set<String>
    public var plans: OrganizationPlans
    /// The projection's position the snapshot was read at.
    public var position: Int64
    /// Each subscription's environment, for the offer's `subscription`.
    public var environments: [String: String]

    public init(id: String, accountToken: UUID?, resellerID: String?, staffEducation: Bool?, autoEducationDomain: String?,
                admins: Set<String>, plans: OrganizationPlans, position: Int64, environments: [String: String]) {
        self.id = id
        self.accountToken = accountToken
        self.resellerID = resellerID
        self.staffEducation = staffEducation
        self.autoEducationDomain = autoEducationDomain
        self.admins = admins
        self.plans = plans
        self.position = position
        self.environments = environments
    }
}
