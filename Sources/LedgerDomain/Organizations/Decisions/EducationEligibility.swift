/// O7–O9: whether an organization may buy the education plan, and why.
public struct EducationEligibility: Sendable, Hashable {
    public var eligible: Bool
    /// `staff` or `school_email`; nil when not eligible.
    public var source: String?
    /// O8: the grant to record now (once), when this reader made the organization eligible.
    public var grant: PendingEvent?

    /// Staff's decision is final either way (O9); otherwise eligible after an automatic
    /// grant, or now when this administrator has a verified e-mail on a school domain, in
    /// which case the grant is returned, to be recorded once (`education-auto:<org>`).
    public init(_ org: OrganizationSnapshot, reader: AppStoreReader, role: AppStoreReader.Role, domains: SchoolDomains) {
        if let decided = org.staffEducation {
            self.init(eligible: decided, source: decided ? "staff" : nil, grant: nil)
        } else if org.autoEducationDomain != nil {
            self.init(eligible: true, source: "school_email", grant: nil)
        } else if role == .administrator, reader.emailVerified, let email = reader.email, let domain = domains.match(email: email) {
            let grant = EducationEligibilityGranted(orgID: org.id, domain: domain, personID: reader.personID)
            self.init(eligible: true, source: "school_email",
                      grant: PendingEvent(grant, on: "org-" + org.id, idempotencyKey: Self.grantKey(org.id)))
        } else {
            self.init(eligible: false, source: nil, grant: nil)
        }
    }

    /// The key of an organization's automatic grant: recorded once, whoever triggers it.
    public static func grantKey(_ orgID: String) -> String { "education-auto:" + orgID }

    init(eligible: Bool, source: String?, grant: PendingEvent?) {
        self.eligible = eligible
        self.source = source
        self.grant = grant
    }
}
