import Projections

/// O8/O9: how an organization's education eligibility was decided. A staff decision is
/// final either way and outranks the school domain that made the organization eligible
/// automatically; every surface shows that order, so it is decided here once.
public enum EducationStatus: Sendable, Hashable {
    /// Staff decided: eligible or not.
    case staff(eligible: Bool)
    /// No staff decision; eligible automatically by this school domain.
    case domain(String)
    /// Neither: no staff decision, and no school domain made it eligible.
    case undecided

    public init(staffDecision: Bool?, autoDomain: String?) {
        if let eligible = staffDecision {
            self = .staff(eligible: eligible)
        } else if let domain = autoDomain {
            self = .domain(domain)
        } else {
            self = .undecided
        }
    }
}

extension OrganizationsReadModel.Record {
    /// O8/O9: who decided this organization's education eligibility.
    public var education: EducationStatus {
        EducationStatus(staffDecision: staffEducation, autoDomain: autoEducationDomain)
    }
}
