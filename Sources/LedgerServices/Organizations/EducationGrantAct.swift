import LedgerDomain

/// O8: the automatic education grant an offer found due (an administrator with a
/// verified e-mail on a K-12 school domain), recorded once per organization.
public struct EducationGrantAct: LedgerAct {
    public var grant: PendingEvent

    public init(grant: PendingEvent) { self.grant = grant }

    public func decide(_ reads: ActReads) throws -> Decision { Decision(grant) }

    /// Another administrator's grant came first: the organization is eligible all the same.
    public func keyTaken(_ key: String?, by decision: Decision, _ reads: ActReads) throws -> RaceVerdict? {
        .alreadyRecorded(AlreadyRecorded("the organization was made eligible meanwhile"))
    }
}
