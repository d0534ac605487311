import LedgerDomain
import Projections

/// An organization as an operator looks at it, at the instant it was read: the plan now
/// and each subscription's status are judged at that one instant, so that every surface
/// showing it says the same.
public struct OrganizationView: Sendable {
    /// Its name, reseller, education decisions and admins, as listed.
    public var organization: OrganizationsReadModel.Record
    /// Its plan timelines and App Store subscriptions, as the App Store rules judge them.
    public var snapshot: OrganizationSnapshot
    /// The instant it was read at.
    public var at: Timestamp
    /// When its first event occurred (business time, as its plan changes' instants are);
    /// nil when the log does not say.
    public var created: Timestamp?

    public init(organization: OrganizationsReadModel.Record, snapshot: OrganizationSnapshot, at: Timestamp, created: Timestamp? = nil) {
        self.organization = organization
        self.snapshot = snapshot
        self.at = at
        self.created = created
    }

    /// The plan in force at `at` and the source it comes from (nil: the default plan).
    public var current: (plan: Plan, source: PlanSource?) { snapshot.plans.current(at: at) }

    /// The change of plan that will take effect next, from which source and when (a
    /// downgrade at the month's end, a lapse at the subscription's expiry): what the API's
    /// offer says is pending, judged by the same rule.
    public var pending: (plan: Plan, source: PlanSource?, from: Timestamp)? { snapshot.plans.pendingChange(at: at) }

    /// Its plans over time, per source and in force, from its creation (from its first
    /// change when the log does not say when it was created).
    public var planLanes: PlanLanes { PlanLanes(snapshot.plans, start: created ?? at) }

    /// O8/O9: who decided its education eligibility.
    public var education: EducationStatus { organization.education }
}
