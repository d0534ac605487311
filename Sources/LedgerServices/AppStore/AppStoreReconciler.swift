import AppStore
import AppStoreServerAPI
import EventStore
import Foundation
import LedgerDomain
import Postgres

/// `ledger appstore reconcile`: asks Apple's Get All Subscription Statuses for each App
/// Store subscription the log holds (of one organization, or all) and records, as
/// `AppStoreReconcileAct`, what Apple knows and the log does not; or, in a dry run, says
/// what it would record and what it would do to each plan, appending nothing
/// (docs/appstore.md, "Reconciliation").
public struct AppStoreReconciler: Sendable {
    /// One subscription's outcome.
    public struct Line: Sendable, Encodable {
        public var orgID: String
        public var originalTransactionID: String
        public var environment: String
        public var before: SubscriptionStatus?
        public var after: SubscriptionStatus?
        public var planBefore: Plan?
        public var planAfter: Plan?
        /// The event types it records (or would).
        public var events: [String]
        /// `agrees`, `recorded`, `would_record` (dry run), `recorded_meanwhile`, or `error`.
        public var outcome: String
        public var why: String

        enum CodingKeys: String, CodingKey {
            case orgID = "org_id", originalTransactionID = "original_transaction_id", environment, before, after
            case planBefore = "plan_before", planAfter = "plan_after", events, outcome, why
        }
    }

    let clients: [AppStoreServerAPIClient]
    let acts: ActRunner
    let products: AppStoreProducts
    let actor: Actor

    public init(clients: [AppStoreServerAPIClient], connections: PostgresPool, store: EventStore, products: AppStoreProducts, actor: Actor,
                now: @escaping LedgerClock) {
        self.clients = clients
        self.acts = ActRunner(store: store, connections: connections, now: now)
        self.products = products
        self.actor = actor
    }

    /// Reconciles each subscription of `orgID` (nil: every organization) held under an app of
    /// `bundleID` (nil: any configured) whose latest transaction expires at or after `since`
    /// (nil: all of them).
    public func run(orgID: String?, bundleID: String?, since: Timestamp?, dryRun: Bool) throws -> [Line] {
        var lines: [Line] = []
        for ref in try acts.reads.organizations.appStoreSubscriptions(orgID: orgID) {
            var line = Line(orgID: ref.orgID, originalTransactionID: ref.originalTransactionID, environment: ref.environment, before: nil,
                            after: nil, planBefore: nil, planAfter: nil, events: [], outcome: "error", why: "")
            // Production subscriptions are asked of the production host; sandbox and Xcode
            // ones of the sandbox (or a stand-in).
            let wanted = ref.environment == AppStoreEnvironmentPolicy.Environment.production
                ? AppStoreEnvironmentPolicy.Environment.production : AppStoreEnvironmentPolicy.Environment.sandbox
            guard let client = clients.first(where: { client in
                client.configuration.environment.signedEnvironment == wanted
                    && (bundleID.map { client.configuration.credentials.bundleID == $0 } ?? true)
            }) else {
                if bundleID == nil {
                    line.why = "no key in LEDGER_APPSTORE_API_KEYS asks Apple's \(wanted) environment"
                    lines.append(line)
                }
                continue
            }
            if let since, let org = try acts.reads.organizations.snapshot(ref.orgID),
               let expires = org.plans.subscriptions.first(where: { $0.originalTransactionID == ref.originalTransactionID })?.latest?.expires,
               expires < since {
                continue
            }
            do {
                let statuses = try client.allSubscriptionStatuses(transactionID: ref.originalTransactionID)
                guard let last = statuses.groups.flatMap(\.lastTransactions)
                    .first(where: { $0.originalTransactionID == ref.originalTransactionID }) else {
                    line.why = "Apple's answer holds no subscription \(ref.originalTransactionID)"
                    lines.append(line)
                    continue
                }
                let apple = AppStoreReconciliation.AppleStatus(
                    status: Int(last.status), transaction: AppStoreTransactionFacts(last.transaction.value),
                    said: last.renewalInfo.value.signedDate, gracePeriodExpires: last.renewalInfo.value.gracePeriodExpiresDate)
                let act = AppStoreReconcileAct(orgID: ref.orgID, apple: apple, products: products)
                guard let change = try act.change(acts.reads) else {
                    line.outcome = "agrees"
                    line.why = "product \(apple.transaction.productID) is not a plan, or Apple's status \(apple.status) is not one it documents"
                    lines.append(line)
                    continue
                }
                line.before = change.before
                line.after = change.after
                line.planBefore = change.planBefore
                line.planAfter = change.planAfter
                line.events = change.events.map(\.type)
                line.why = change.why
                if change.events.isEmpty {
                    line.outcome = "agrees"
                } else if dryRun {
                    line.outcome = "would_record"
                } else {
                    let metadata = EventMetadata(actor: actor, reason: "reconciled with Apple's subscription status",
                                                 extra: ["source": .string("subscription_status")])
                    switch try acts.run(act, metadata: metadata, key: nil).0 {
                    case .appended(let result): line.outcome = result.replayed ? "recorded_meanwhile" : "recorded"
                    case .alreadyRecorded: line.outcome = "recorded_meanwhile"
                    case .refused(let refusal): line.why += "; refused: \(refusal.code): \(refusal.message)"
                    case .conflict(let conflict): line.why += "; conflict: \(conflict.detail)"
                    case .outcomeUnknown(let detail), .unavailable(let detail): line.why += "; database: \(detail)"
                    case .projectionBehind(let behind): line.why += "; \(behind)"
                    }
                }
            } catch let error as AppStoreServerAPIError {
                line.why = "\(error)"
            }
            lines.append(line)
        }
        return lines
    }
}
