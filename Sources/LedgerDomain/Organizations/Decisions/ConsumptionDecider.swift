import LedgerJSON

/// Refund requests (`CONSUMPTION_REQUEST`, docs/appstore.md "Refund requests"): what the
/// ledger tells Apple, from its own facts about the organization, and the one answer it
/// records per request. Pure: the request and the facts were read from the log and the
/// organizations projection, the policy from configuration.
public enum ConsumptionDecider {
    /// What to do with a request not answered yet.
    public enum Verdict: Sendable, Hashable {
        /// Send these fields to Apple, then record what Apple said.
        case send(ConsumptionInformation)
        /// Record this answer without asking Apple (declined, expired).
        case record(Answer)
    }

    /// An answer to a request, as `answer(_:to:answered:now:)` records it.
    public enum Answer: Sendable, Hashable {
        /// Apple took the fields.
        case sent(ConsumptionInformation)
        /// Apple refused the fields with a 4xx that sending again cannot fix.
        case refused(ConsumptionInformation, status: Int, code: String, appleErrorCode: Int64?, message: String)
        /// Nothing sent by decision: `ConsumptionReason.noConsent` or `.noOrganization`.
        case declined(reason: String)
        /// Not sent before `respond_by`; `detail` says what stood in the way.
        case expired(detail: String)
    }

    /// What to do with `request` at `now`: past its `respond_by` it has expired; without
    /// the app's consent, or without an organization to speak of, it is declined; else the
    /// fields are built from `customer` (the organization as it stood at the request).
    public static func verdict(for request: AppStoreConsumptionRequested, customer: ConsumptionCustomer?, policy: ConsumptionPolicy,
                               now: Timestamp) -> Verdict {
        if now >= request.respondBy { return .record(.expired(detail: "not answered within 12 hours of Apple's request")) }
        guard policy.consent else { return .record(.declined(reason: ConsumptionReason.noConsent)) }
        guard let customer, request.orgID != nil else { return .record(.declined(reason: ConsumptionReason.noOrganization)) }
        return .send(information(for: request, customer: customer, policy: policy))
    }

    /// Apple's fields for `request`, from what the ledger knows (each choice is argued in
    /// docs/appstore.md, "Refund requests"): the tenure at the request's `signedDate`, an
    /// active account, delivered on Apple's platform, what it does not know undeclared.
    public static func information(for request: AppStoreConsumptionRequested, customer: ConsumptionCustomer,
                                   policy: ConsumptionPolicy) -> ConsumptionInformation {
        ConsumptionInformation(
            customerConsented: policy.consent, consumptionStatus: 0, platform: 1, sampleContentProvided: customer.hadFreeTrial,
            deliveryStatus: 0, appAccountToken: customer.accountToken,
            accountTenure: accountTenure(since: customer.customerSince, at: request.signedDate), playTime: 0,
            lifetimeDollarsRefunded: customer.refundedUSCents.map(dollarsBucket(cents:)) ?? 0, lifetimeDollarsPurchased: 0,
            userStatus: 1, refundPreference: (0...3).contains(policy.refundPreference) ? policy.refundPreference : 0)
    }

    /// Apple's `accountTenure` bucket for a customer since `start`, at `instant`: 1 under 3
    /// days, 2 under 10, 3 under 30, 4 under 90, 5 under 180, 6 under 365, 7 from 365 days
    /// on. Each edge belongs to the bucket it starts; a start after `instant` (clocks apart)
    /// counts as 0 days; 0 (undeclared) when the start is not known.
    public static func accountTenure(since start: Timestamp?, at instant: Timestamp) -> Int {
        guard let start else { return 0 }
        let day: Int64 = 86_400_000_000
        let age = max(0, instant.microseconds - start.microseconds)
        let edges: [Int64] = [3, 10, 30, 90, 180, 365]
        return 1 + edges.filter { age >= $0 * day }.count
    }

    /// Apple's `lifetimeDollarsRefunded` / `lifetimeDollarsPurchased` bucket for an amount
    /// in US cents: 1 nothing, 2 under 50 USD, 3 under 100, 4 under 500, 5 under 1000, 6
    /// under 2000, 7 from 2000 USD on (each edge in the bucket it starts).
    public static func dollarsBucket(cents: Int64) -> Int {
        guard cents > 0 else { return 1 }
        let edges: [Int64] = [5_000, 10_000, 50_000, 100_000, 200_000]
        return 2 + edges.filter { cents >= $0 }.count
    }

    /// The one answer to `request` (`appstore.consumption_answered`, keyed
    /// `appstore-consumption:<uuid>`), at `now`. `answered`: the log holds an answer to it
    /// already. Enforces what the folds and Apple rely on: one answer per request; fields
    /// within Apple's ranges and with consent when anything was sent; a refusal only with
    /// Apple's 4xx; an expiry only past `respond_by`; a decline for no organization only
    /// when the request names none.
    public static func answer(_ answer: Answer, to request: AppStoreConsumptionRequested, answered: Bool,
                              now: Timestamp) throws(Refusal) -> Decision {
        guard !answered else {
            throw Refusal(.consumptionAlreadyAnswered, "refund request \(request.notificationUUID) was answered before")
        }
        let event: AppStoreConsumptionAnswered
        func make(_ outcome: ConsumptionOutcome, _ reason: String, _ detail: String, status: Int? = nil, apple: Int64? = nil,
                  _ information: ConsumptionInformation? = nil) -> AppStoreConsumptionAnswered {
            AppStoreConsumptionAnswered(notificationUUID: request.notificationUUID, orgID: request.orgID,
                                        originalTransactionID: request.originalTransactionID, transactionID: request.transactionID,
                                        outcome: outcome, reason: reason, detail: detail, status: status, appleErrorCode: apple,
                                        information: information)
        }
        switch answer {
        case .sent(let information), .refused(let information, _, _, _, _):
            let problems = information.problems
            guard problems.isEmpty else {
                throw Refusal(.consumptionAnswerInvalid, "consumption information Apple would not take", errors: problems)
            }
            if case .refused(_, let status, let code, let apple, let message) = answer {
                guard (400..<500).contains(status) else {
                    throw Refusal(.consumptionAnswerInvalid, "only Apple's 4xx is a final refusal, not \(status): the next look retries")
                }
                event = make(.failed, code, "Apple refused it (\(status)): \(message)", status: status, apple: apple, information)
            } else {
                event = make(.sent, ConsumptionReason.accepted, "Apple took the consumption information", information)
            }
        case .declined(let reason):
            switch reason {
            case ConsumptionReason.noConsent:
                event = make(.declined, reason, "the app's configuration does not say its customers consented (consumption_consent)")
            case ConsumptionReason.noOrganization where request.orgID == nil:
                event = make(.declined, reason, "the transaction names no organization of the ledger: there is nothing to declare")
            default:
                throw Refusal(.consumptionAnswerInvalid, "a refund request is not declined for \(reason)")
            }
        case .expired(let detail):
            guard now >= request.respondBy else {
                throw Refusal(.consumptionAnswerInvalid, "the request may be answered until \(request.respondBy.iso8601)")
            }
            event = make(.expired, ConsumptionReason.pastRespondBy, detail)
        }
        return Decision(PendingEvent(event, on: request.stream, occurredAt: now, idempotencyKey: request.answerKey))
    }

    /// The request a subscription's stream holds for `notificationUUID`, and whether the
    /// stream holds its answer: the log itself, not a projection a moment behind.
    public static func find(_ notificationUUID: String, in stream: [(type: String, data: JSONValue)]) throws
        -> (request: AppStoreConsumptionRequested?, answered: Bool) {
        let decoder = JSONValueDecoder()
        var request: AppStoreConsumptionRequested?
        var answered = false
        for event in stream where event.data["notification_uuid"]?.stringValue == notificationUUID {
            switch event.type {
            case AppStoreConsumptionRequested.type: request = try decoder.decode(AppStoreConsumptionRequested.self, from: event.data)
            case AppStoreConsumptionAnswered.type: answered = true
            default: break
            }
        }
        return (request, answered)
    }
}
