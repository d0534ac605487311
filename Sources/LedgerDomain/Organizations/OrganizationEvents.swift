import Foundation

/// `org.created`, on `org-<id>`.
public struct OrganizationCreated: DomainEvent {
    public static let type = "org.created"
    public var orgID: String
    public var name: String
    enum CodingKeys: String, CodingKey { case orgID = "org_id", name }
    public init(orgID: String, name: String) { self.orgID = orgID; self.name = name }
}

/// `org.account_token_created`, on `org-<id>`, once (O4): the UUID the app hands StoreKit
/// as `appAccountToken`, so that every transaction names its organization.
public struct AccountTokenCreated: DomainEvent {
    public static let type = "org.account_token_created"
    public var orgID: String
    public var accountToken: UUID
    enum CodingKeys: String, CodingKey { case orgID = "org_id", accountToken = "account_token" }
    public init(orgID: String, accountToken: UUID) { self.orgID = orgID; self.accountToken = accountToken }
}

/// `org.admin_designated` / `org.admin_removed`, on `org-<id>` (O1).
public struct AdminDesignated: DomainEvent {
    public static let type = "org.admin_designated"
    public var orgID: String
    public var personID: String
    enum CodingKeys: String, CodingKey { case orgID = "org_id", personID = "person_id" }
    public init(orgID: String, personID: String) { self.orgID = orgID; self.personID = personID }
}

public struct AdminRemoved: DomainEvent {
    public static let type = "org.admin_removed"
    public var orgID: String
    public var personID: String
    enum CodingKeys: String, CodingKey { case orgID = "org_id", personID = "person_id" }
    public init(orgID: String, personID: String) { self.orgID = orgID; self.personID = personID }
}

/// `org.delegated_to_reseller` / `org.delegation_ended`, on `org-<id>` (O2, O3).
public struct DelegatedToReseller: DomainEvent {
    public static let type = "org.delegated_to_reseller"
    public var orgID: String
    public var resellerID: String
    enum CodingKeys: String, CodingKey { case orgID = "org_id", resellerID = "reseller_id" }
    public init(orgID: String, resellerID: String) { self.orgID = orgID; self.resellerID = resellerID }
}

public struct DelegationEnded: DomainEvent {
    public static let type = "org.delegation_ended"
    public var orgID: String
    enum CodingKeys: String, CodingKey { case orgID = "org_id" }
    public init(orgID: String) { self.orgID = orgID }
}

/// `org.staff_plan_decided` / `org.billing_plan_changed`, on `org-<id>`: a plan set by
/// staff or by billing (`plan: null` removes it). Upgrades apply at once, downgrades and
/// removals at the next start of a UTC month.
public struct StaffPlanDecided: DomainEvent {
    public static let type = "org.staff_plan_decided"
    public var orgID: String
    public var plan: Plan?
    enum CodingKeys: String, CodingKey { case orgID = "org_id", plan }
    public init(orgID: String, plan: Plan?) { self.orgID = orgID; self.plan = plan }
}

public struct BillingPlanChanged: DomainEvent {
    public static let type = "org.billing_plan_changed"
    public var orgID: String
    public var plan: Plan?
    enum CodingKeys: String, CodingKey { case orgID = "org_id", plan }
    public init(orgID: String, plan: Plan?) { self.orgID = orgID; self.plan = plan }
}

/// `org.staff_education_decided`, on `org-<id>`: final either way (O9).
public struct StaffEducationDecided: DomainEvent {
    public static let type = "org.staff_education_decided"
    public var orgID: String
    public var eligible: Bool
    enum CodingKeys: String, CodingKey { case orgID = "org_id", eligible }
    public init(orgID: String, eligible: Bool) { self.orgID = orgID; self.eligible = eligible }
}

/// `org.education_eligibility_granted`, on `org-<id>`, once (O8): an administrator with a
/// verified e-mail on a K-12 school domain opened the offer or recorded a transaction.
/// It is the organization's audit entry: it names the domain matched.
public struct EducationEligibilityGranted: DomainEvent {
    public static let type = "org.education_eligibility_granted"
    public var orgID: String
    public var source: String
    public var domain: String
    public var personID: String
    enum CodingKeys: String, CodingKey { case orgID = "org_id", source, domain, personID = "person_id" }
    public init(orgID: String, domain: String, personID: String) {
        self.orgID = orgID
        self.source = "school_email"
        self.domain = domain
        self.personID = personID
    }
}
