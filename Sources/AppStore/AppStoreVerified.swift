import LedgerJSON

/// What `AppStoreVerifier.verifyAny` found: one of the three kinds of signed payload.
public enum AppStoreVerified: Sendable, Equatable {
    /// A signed transaction (its payload has `transactionId`).
    case transaction(AppStoreTransaction)
    /// Signed renewal info (`originalTransactionId` without `transactionId`).
    case renewalInfo(AppStoreRenewalInfo)
    /// A notification (`notificationType`), with its nested JWS verified.
    case notification(AppStoreNotification)

    /// `transaction`, `renewal info` or `notification`.
    public var kind: String {
        switch self {
        case .transaction: "transaction"
        case .renewalInfo: "renewal info"
        case .notification: "notification"
        }
    }

    /// The decoded payload, and for a notification its nested JWS replaced by their
    /// decoded payloads, as `ledger appstore verify` prints it.
    public var decodedPayload: JSONValue {
        switch self {
        case .transaction(let transaction): return transaction.payload
        case .renewalInfo(let renewalInfo): return renewalInfo.payload
        case .notification(let notification):
            return AppStoreVerifier.replacingNested(in: notification.payload) { key in
                key == "signedTransactionInfo" ? notification.transaction?.payload : notification.renewalInfo?.payload
            }
        }
    }
}
