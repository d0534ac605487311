import LedgerDomain

/// A StoreKit 2 transaction an SDK syncs into a user's purchase history with an app,
/// verified by the front end with the app's bundle ID: `CatalogDecider.syncTransaction`,
/// recorded once per transaction.
public struct PurchaseSyncAct: LedgerAct {
    public var facts: AppStoreTransactionFacts
    public var trial: Bool
    public var user: String
    public var appID: String
    public var testKey: Bool

    public init(_ facts: AppStoreTransactionFacts, trial: Bool, user: String, appID: String, testKey: Bool) {
        self.facts = facts
        self.trial = trial
        self.user = user
        self.appID = appID
        self.testKey = testKey
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        try CatalogDecider.syncTransaction(facts, trial: trial, user: user, appID: appID, testKey: testKey)
    }

    /// The transaction's key holds another user's sync.
    public func keyTaken(_ key: String?, by decision: Decision, _ reads: ActReads) throws -> RaceVerdict? {
        .refused(Refusal(.transactionConflict, "Transaction \(ExternalID.text(facts.transactionID)) was synced before for another user."))
    }
}
