import LedgerDomain

/// An organization act that appends one event to an existing `org-<id>` stream, as
/// `OrganizationDecider` decides it (education eligibility, O9; staff plans): the stream
/// must exist, which the append itself checks, so a missing organization is refused even
/// before the projector has seen it.
public struct OrgEventAct: LedgerAct {
    public var org: String
    public var decideOn: @Sendable () throws -> Decision

    public init(org: String, decide: @escaping @Sendable () throws -> Decision) {
        self.org = org
        self.decideOn = decide
    }

    /// O9: staff's final decision on education eligibility.
    public static func education(org: String, eligible: Bool) -> OrgEventAct {
        OrgEventAct(org: org) { OrganizationDecider.decideEducation(org: org, eligible: eligible) }
    }

    public func decide(_ reads: ActReads) throws -> Decision { try decideOn() }

    public func lostRace(on stream: String, actualVersion: Int64?, _ reads: ActReads) throws -> Refusal? {
        stream == OrganizationDecider.stream(org) && (actualVersion ?? 0) == 0 ? Refusal(.notFound, "no organization \(org)") : nil
    }
}
