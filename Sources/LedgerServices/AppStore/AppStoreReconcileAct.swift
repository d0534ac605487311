import LedgerDomain

/// Reconciliation of one App Store subscription with Apple's status of it
/// (`AppStoreReconciliation`), decided on the organization as the projection holds it now.
public struct AppStoreReconcileAct: LedgerAct {
    public var orgID: String
    public var apple: AppStoreReconciliation.AppleStatus
    public var products: AppStoreProducts

    public init(orgID: String, apple: AppStoreReconciliation.AppleStatus, products: AppStoreProducts) {
        self.orgID = orgID
        self.apple = apple
        self.products = products
    }

    /// What it would change, without appending: the dry run's answer, and the act's.
    public func change(_ reads: ActReads) throws -> AppStoreReconciliation.Change? {
        guard let org = try reads.organizations.snapshot(orgID) else { throw Refusal(.notFound, "no organization \(orgID)") }
        let original = ExternalID.value(apple.transaction.originalTransactionID)
        let subscription = org.plans.subscriptions.first { $0.originalTransactionID == original }
        return AppStoreReconciliation.reconcile(subscription, apple: apple, orgID: orgID, products: products, now: reads.now())
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        guard let change = try change(reads), !change.events.isEmpty else {
            throw AlreadyRecorded("the log agrees with Apple on \(ExternalID.text(apple.transaction.originalTransactionID))")
        }
        return Decision(change.events)
    }

    /// Recorded meanwhile (a notification, another run): what is recorded stays.
    public func keyTaken(_ key: String?, by decision: Decision, _ reads: ActReads) throws -> RaceVerdict? {
        .decideAgain
    }
}
