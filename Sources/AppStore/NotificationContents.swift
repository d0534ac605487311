import LedgerDomain
import LedgerJSON

/// What a notification payload says before its nested JWS are verified.
///
/// The app and environment come from `data` (subscription and purchase events), else
/// `summary` (renewal-extension summaries), else `externalPurchaseToken`, whose
/// environment Apple conveys only by a `SANDBOX` prefix on `externalPurchaseId`.
struct NotificationContents {
    var notificationType: String
    var subtype: String?
    var notificationUUID: String
    var version: String?
    var signedDate: Timestamp
    var environment: String
    var bundleID: String
    var appAppleID: Int64?
    var status: Int?
    var signedTransactionInfo: String?
    var signedRenewalInfo: String?
    var summary: AppStoreNotification.Summary?

    init(payload: JSONValue) throws(AppStoreError) {
        let fields = try PayloadFields(payload, kind: "notification")
        notificationType = try fields.string("notificationType")
        subtype = try fields.optionalString("subtype")
        notificationUUID = try fields.string("notificationUUID")
        guard !notificationUUID.isEmpty else { throw AppStoreError(.malformedPayload, "notificationUUID is empty") }
        version = try fields.optionalString("version")
        signedDate = try fields.timestamp("signedDate")
        if let data = try fields.object("data") {
            bundleID = try data.string("bundleId")
            environment = try data.string("environment")
            appAppleID = try data.optionalInt64("appAppleId")
            status = try data.optionalInt("status")
            signedTransactionInfo = try data.optionalString("signedTransactionInfo")
            signedRenewalInfo = try data.optionalString("signedRenewalInfo")
        } else if let summary = try fields.object("summary") {
            bundleID = try summary.string("bundleId")
            environment = try summary.string("environment")
            appAppleID = try summary.optionalInt64("appAppleId")
            self.summary = AppStoreNotification.Summary(
                requestIdentifier: try summary.optionalString("requestIdentifier"), productID: try summary.optionalString("productId"),
                succeededCount: try summary.optionalInt64("succeededCount"), failedCount: try summary.optionalInt64("failedCount"))
        } else if let token = try fields.object("externalPurchaseToken") {
            bundleID = try token.string("bundleId")
            appAppleID = try token.optionalInt64("appAppleId")
            let purchaseID = try token.optionalString("externalPurchaseId") ?? ""
            environment = purchaseID.hasPrefix("SANDBOX")
                ? AppStoreEnvironmentPolicy.Environment.sandbox : AppStoreEnvironmentPolicy.Environment.production
        } else {
            throw AppStoreError(.malformedPayload, "the notification has no data, summary or externalPurchaseToken")
        }
    }
}
