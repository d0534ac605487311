import EventStore
import LedgerDomain

/// T1–T7: a StoreKit 2 transaction, verified by the front end, recorded for the
/// organization by `AppStoreDecider` on the organization as the projection holds it and
/// on the subscription's own stream read from the log, so that a transaction a
/// notification recorded a moment ago is already recorded (T5), folded or not.
public struct AppStoreTransactionAct: LedgerAct {
    public var facts: AppStoreTransactionFacts
    public var orgID: String
    public var reader: AppStoreReader
    public var products: AppStoreProducts
    public var domains: SchoolDomains

    public init(_ facts: AppStoreTransactionFacts, orgID: String, reader: AppStoreReader, products: AppStoreProducts,
                domains: SchoolDomains) {
        self.facts = facts
        self.orgID = orgID
        self.reader = reader
        self.products = products
        self.domains = domains
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        guard let org = try reads.organizations.snapshot(orgID) else { throw Refusal(.notFound, "no organization \(orgID) for this session") }
        let known = try AppStoreSubscriptionLog(try reads.stream(facts.stream).map { (type: $0.type, data: try $0.data()) })
        let decision = try AppStoreDecider.recordTransaction(facts, org: org, reader: reader, known: known, products: products,
                                                             domains: domains, now: reads.now())
        guard !decision.events.isEmpty else { throw AlreadyRecorded("transaction \(ExternalID.text(facts.transactionID)) is recorded") }
        return decision
    }

    public func keyTaken(_ key: String?, by decision: Decision, _ reads: ActReads) throws -> RaceVerdict? {
        if Self.claimsOnly(decision.events.map(\.type)) {
            // Another administrator claimed it meanwhile: its first holder stays (T5, O10).
            return .alreadyRecorded(AlreadyRecorded("transaction \(ExternalID.text(facts.transactionID)) was claimed meanwhile"))
        }
        if key == EducationEligibility.grantKey(orgID) {
            // Another administrator made the organization eligible meanwhile.
            return .decideAgain
        }
        return .refused(Refusal(.appStoreTransactionInvalid,
                                "transaction \(ExternalID.text(facts.transactionID)) was recorded before with other content"))
    }

    /// Whether an append of these event types recorded the transaction anew: a claim only
    /// records who bought a transaction already recorded.
    public static func recordsAnew(_ decision: Decision, _ result: AppendResult) -> Bool {
        !claimsOnly(decision.events.map(\.type)) && !(result.events.last?.alreadyRecorded ?? true)
    }

    private static func claimsOnly(_ types: [String]) -> Bool {
        types.allSatisfy { $0 == AppStoreSubscriptionClaimed.type }
    }
}
