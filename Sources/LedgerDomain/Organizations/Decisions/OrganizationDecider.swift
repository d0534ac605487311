import Foundation

/// Decides the operator acts on organizations (staff and billing decisions, delegation,
/// administrators). An organization is its stream `org-<id>`: a create expects none, every
/// other act expects it to exist, so a missing organization is refused even when the
/// projector is behind.
public enum OrganizationDecider {
    public static func stream(_ org: String) -> String { "org-" + org }

    /// `org.created` and, in the same append, its account token (O4: created once, here).
    public static func create(id: String, name: String, accountToken: UUID) throws(Refusal) -> Decision {
        try AccountsDecider.checkIdentifier(id, "organization")
        return Decision([PendingEvent(OrganizationCreated(orgID: id, name: name), on: stream(id)),
                         PendingEvent(AccountTokenCreated(orgID: id, accountToken: accountToken), on: stream(id))],
                        expecting: [stream(id): .noStream])
    }

    public static func designateAdmin(org: String, person: String) throws(Refusal) -> Decision {
        try checkPerson(person)
        return act(AdminDesignated(orgID: org, personID: person), org)
    }

    public static func removeAdmin(org: String, person: String) throws(Refusal) -> Decision {
        try checkPerson(person)
        return act(AdminRemoved(orgID: org, personID: person), org)
    }

    /// O2, O3: delegated to a reseller (which pays the plan), or the delegation ended.
    public static func delegate(org: String, reseller: String?) throws(Refusal) -> Decision {
        guard let reseller else { return act(DelegationEnded(orgID: org), org) }
        try AccountsDecider.checkIdentifier(reseller, "reseller")
        return act(DelegatedToReseller(orgID: org, resellerID: reseller), org)
    }

    /// O9: final either way.
    public static func decideEducation(org: String, eligible: Bool) -> Decision {
        act(StaffEducationDecided(orgID: org, eligible: eligible), org)
    }

    /// A plan set (or, with nil, removed) by staff or billing; upgrades apply at once,
    /// downgrades and removals at the next start of a UTC month.
    public static func setPlan(org: String, source: PlanSource, plan: Plan?) throws(Refusal) -> Decision {
        switch source {
        case .staff: return act(StaffPlanDecided(orgID: org, plan: plan), org)
        case .billing: return act(BillingPlanChanged(orgID: org, plan: plan), org)
        case .appStore: throw Refusal(.outOfRange, "App Store plans come from Apple's signed payloads, not from operators")
        }
    }

    static func act<E: DomainEvent>(_ event: E, _ org: String) -> Decision {
        Decision(PendingEvent(event, on: stream(org)), expecting: [stream(org): .streamExists])
    }

    /// Person ids come from the identity service: any text a session can carry and the
    /// log can hold.
    static func checkPerson(_ person: String) throws(Refusal) {
        guard (1...200).contains(person.count), !person.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw Refusal(.outOfRange, "a person id is 1 to 200 characters without control characters")
        }
    }
}
