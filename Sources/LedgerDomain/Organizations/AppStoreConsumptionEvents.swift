/// `appstore.consumption_requested`, on `appstore-sub-<originalTransactionId>`: Apple asked
/// for consumption information about a transaction whose refund its customer requested
/// (`CONSUMPTION_REQUEST`). Deduplicated on the notification's UUID like every notification;
/// answered once by `appstore.consumption_answered` (docs/appstore.md, "Refund requests").
public struct AppStoreConsumptionRequested: DomainEvent {
    public static let type = "appstore.consumption_requested"
    /// Apple weighs consumption information sent within 12 hours of its request.
    public static let answerWindowMicroseconds: Int64 = 12 * 3_600_000_000

    /// The organization whose account token the transaction names; nil when it names none.
    public var orgID: String?
    public var originalTransactionID: String
    /// The transaction the customer wants refunded: the one the information is sent for.
    public var transactionID: String
    public var productID: String
    /// The app the notification came from (the keys-file entry that answers it); nil in
    /// requests decided without it.
    public var bundleID: String?
    public var notificationUUID: String
    public var signedDate: Timestamp
    /// `signed_date` + 12 hours: after it, the request is answered `expired`.
    public var respondBy: Timestamp
    /// `Production`, `Sandbox` or `Xcode`, as Apple signed it.
    public var environment: String

    enum CodingKeys: String, CodingKey {
        case orgID = "org_id", originalTransactionID = "original_transaction_id", transactionID = "transaction_id"
        case productID = "product_id", bundleID = "bundle_id", notificationUUID = "notification_uuid", signedDate = "signed_date"
        case respondBy = "respond_by", environment
    }

    public init(orgID: String?, originalTransactionID: String, transactionID: String, productID: String, bundleID: String?,
                notificationUUID: String, signedDate: Timestamp, environment: String) {
        self.orgID = orgID
        self.originalTransactionID = originalTransactionID
        self.transactionID = transactionID
        self.productID = productID
        self.bundleID = bundleID
        self.notificationUUID = notificationUUID
        self.signedDate = signedDate
        self.respondBy = Timestamp(microseconds: signedDate.microseconds + Self.answerWindowMicroseconds) ?? .maximum
        self.environment = environment
    }

    /// The subscription's stream, which holds the request and its answer.
    public var stream: String { AppStoreTransactionFacts.stream(originalTransactionID: originalTransactionID) }

    /// One answer per request, whoever answers and however often they try.
    public var answerKey: String { Self.answerKey(notificationUUID: notificationUUID) }
    public static func answerKey(notificationUUID: String) -> String { "appstore-consumption:" + ExternalID.key(notificationUUID) }
}

/// `appstore.consumption_answered`, on `appstore-sub-<originalTransactionId>`: how the
/// ledger answered a refund request, once per request (idempotency key
/// `appstore-consumption:<notificationUUID>`): `sent` with what Apple took, `declined`
/// (no consent, no organization), `expired` (12 hours passed), or `failed` with Apple's
/// refusal and what was sent.
public struct AppStoreConsumptionAnswered: DomainEvent {
    public static let type = "appstore.consumption_answered"
    public var notificationUUID: String
    public var orgID: String?
    public var originalTransactionID: String
    public var transactionID: String
    public var outcome: ConsumptionOutcome
    /// A stable word: `accepted`, `no_consent`, `no_organization`, `past_respond_by`, or
    /// Apple's error code (`invalid_transaction_id`, `apple_4000000`, …) when it refused.
    public var reason: String
    /// What happened, for people.
    public var detail: String
    /// Apple's HTTP status and error number when it refused.
    public var status: Int?
    public var appleErrorCode: Int64?
    /// The fields sent (`sent`, `failed`); nil when nothing was sent.
    public var information: ConsumptionInformation?

    enum CodingKeys: String, CodingKey {
        case notificationUUID = "notification_uuid", orgID = "org_id", originalTransactionID = "original_transaction_id"
        case transactionID = "transaction_id", outcome, reason, detail, status, appleErrorCode = "apple_error_code", information
    }

    public init(notificationUUID: String, orgID: String?, originalTransactionID: String, transactionID: String,
                outcome: ConsumptionOutcome, reason: String, detail: String, status: Int? = nil, appleErrorCode: Int64? = nil,
                information: ConsumptionInformation? = nil) {
        self.notificationUUID = notificationUUID
        self.orgID = orgID
        self.originalTransactionID = originalTransactionID
        self.transactionID = transactionID
        self.outcome = outcome
        self.reason = reason
        self.detail = detail
        self.status = status
        self.appleErrorCode = appleErrorCode
        self.information = information
    }
}
