import Crypto
import LedgerJSON

/// Which webhook messages an event makes, and about which subjects: a pure function of the
/// event (and, for App Store subscriptions, the plan before it), so that folding the log
/// again gives the same messages.
public enum WebhookMessages {
    /// A message an event makes, about each of `subjects`.
    public struct Derived: Sendable, Hashable {
        public var type: WebhookMessageType
        public var subjects: [WebhookSubject]
        public init(_ type: WebhookMessageType, _ subjects: [WebhookSubject]) {
            self.type = type
            self.subjects = subjects
        }
    }

    /// The event types that can make a message.
    public static let sources: Set<String> = [PlanSet.type, EntryCorrected.type, MonthClosed.type, StaffPlanDecided.type,
                                              BillingPlanChanged.type, AppStoreTransactionRecorded.type, AppStoreSubscriptionEnded.type,
                                              WebhookBalanceThresholdCrossed.type]

    /// The one subscription a message of this event goes to, when it is not every
    /// subscription covering the subject (a threshold is a subscription's own).
    public static func onlySubscription(type: String, data: JSONValue) -> String? {
        type == WebhookBalanceThresholdCrossed.type ? data["webhook_id"]?.stringValue : nil
    }

    /// `previousPlan`: for `appstore.transaction_recorded`, the plan of the subscription's
    /// last transaction recorded before this one (nil for its first).
    public static func derive(type: String, stream: String, data: JSONValue, previousPlan: Plan?) throws -> [Derived] {
        let decoder = JSONValueDecoder()
        switch type {
        case PlanSet.type:
            return [Derived(.planChanged, [subject(of: try decoder.decode(PlanSet.self, from: data).pool)])]
        case EntryCorrected.type:
            // On the owner stream of the corrected entry's pool (`payer-…`, `project-…`).
            guard let owner = owner(ofStream: stream) else { return [] }
            return [Derived(.correctionPosted, [owner])]
        case MonthClosed.type:
            let e = try decoder.decode(MonthClosed.self, from: data)
            let projects = e.charges.map { WebhookSubject(.project, $0.projectID) }
            // Each project charged also gets its own month's figures (in the event's `charges`).
            return [Derived(.monthClosed, [subject(of: e.pool)] + projects.filter { $0 != subject(of: e.pool) }),
                    Derived(.usageMonthSummary, projects)]
        case StaffPlanDecided.type:
            return [Derived(.planChanged, [WebhookSubject(.org, try decoder.decode(StaffPlanDecided.self, from: data).orgID)])]
        case BillingPlanChanged.type:
            return [Derived(.planChanged, [WebhookSubject(.org, try decoder.decode(BillingPlanChanged.self, from: data).orgID)])]
        case AppStoreTransactionRecorded.type:
            return derive(try decoder.decodeFast(AppStoreTransactionRecorded.self, from: data), previousPlan: previousPlan)
        case WebhookBalanceThresholdCrossed.type:
            let e = try decoder.decode(WebhookBalanceThresholdCrossed.self, from: data)
            return e.below ? [Derived(.balanceLow, [e.subject])] : []
        case AppStoreSubscriptionEnded.type:
            let e = try decoder.decode(AppStoreSubscriptionEnded.self, from: data)
            let refunded = e.reason == "REFUND" || e.reason == "REVOKE"
            return [Derived(refunded ? .subscriptionRefunded : .subscriptionExpired, [WebhookSubject(.org, e.orgID)])]
        default:
            return []
        }
    }

    /// The messages of a recorded App Store transaction, given the plan of the same
    /// subscription's last transaction recorded before it (nil for its first).
    public static func derive(_ e: AppStoreTransactionRecorded, previousPlan: Plan?) -> [Derived] {
        let org = [WebhookSubject(.org, e.orgID)]
        if e.revocationDate != nil { return [Derived(.subscriptionRefunded, org)] }
        if e.expiredWhenRecorded { return [] }   // a fact kept for the record (T5): nothing changed
        guard let previous = previousPlan else { return [Derived(.subscriptionStarted, org)] }
        if e.plan.level > previous.level { return [Derived(.subscriptionUpgraded, org)] }
        if e.plan.level < previous.level { return [Derived(.subscriptionDowngraded, org)] }
        return [Derived(.subscriptionRenewed, org)]
    }

    /// A message's id: the same for the same event, type and subject, on every replay, in
    /// the webhook and in the pull feed.
    public static func messageID(position: Int64, type: WebhookMessageType, subject: WebhookSubject) -> String {
        "msg_" + Hex.encode(Array(SHA256.hash(Array("\(position)\n\(type.rawValue)\n\(subject)".utf8)).prefix(16)))
    }

    static func subject(of pool: Pool) -> WebhookSubject {
        switch pool {
        case .payer(let id): return WebhookSubject(.payer, id)
        case .project(let id): return WebhookSubject(.project, id)
        }
    }

    static func owner(ofStream stream: String) -> WebhookSubject? {
        if stream.hasPrefix("payer-") { return WebhookSubject(.payer, String(stream.dropFirst(6))) }
        if stream.hasPrefix("project-") { return WebhookSubject(.project, String(stream.dropFirst(8))) }
        return nil
    }
}
