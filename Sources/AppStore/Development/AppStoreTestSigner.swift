import Crypto
import Foundation
import LedgerDomain
import LedgerJSON

/// Signs App Store payloads the way Apple does (compact JWS, `alg` ES256, `x5c` chain),
/// with a development authority (`AppStoreTestAuthority`) or an Xcode-like self-signed
/// certificate: for trying the service locally (`ledger appstore sign`) and for tests of
/// T, N and this module. Nothing it signs verifies under the production policy.
///
/// ```swift
/// let signer = AppStoreTestSigner(authority: AppStoreTestAuthority())
/// let jws = signer.transaction(productID: "ai.screenrig.plus.monthly", appAccountToken: token)
/// let verifier = AppStoreVerifier(policy: signer.developmentPolicy)
/// let transaction = try verifier.verifyTransaction(jws)
/// ```
///
/// Instants are written in whole milliseconds, as Apple writes them.
public struct AppStoreTestSigner: Sendable {
    /// The leaf's (or Xcode certificate's) key.
    public let key: AppStoreSigningKey
    /// The certificates of the header's `x5c`, DER, in order.
    public let certificates: [[UInt8]]
    /// A policy (outside production) that trusts this signer.
    public let developmentPolicy: AppStoreEnvironmentPolicy
    /// The `bundleId` written into transactions and notifications.
    public var bundleID: String

    /// Signing with `key` under the `x5c` `certificates`, trusted by `developmentPolicy`.
    public init(key: AppStoreSigningKey, certificates: [[UInt8]], developmentPolicy: AppStoreEnvironmentPolicy,
                bundleID: String = "ai.screenrig.app") {
        self.key = key
        self.certificates = certificates
        self.developmentPolicy = developmentPolicy
        self.bundleID = bundleID
    }

    /// Signing with `authority`'s leaf; `x5c` is [leaf, intermediate, root] (Apple sends
    /// the root too), or [leaf, intermediate] without `includingRoot`.
    public init(authority: AppStoreTestAuthority, bundleID: String = "ai.screenrig.app", includingRoot: Bool = true) {
        self.init(key: authority.leafKey,
                  certificates: [authority.leafDER, authority.intermediateDER] + (includingRoot ? [authority.rootDER] : []),
                  developmentPolicy: authority.developmentPolicy, bundleID: bundleID)
    }

    /// The current instant at millisecond precision, as Apple writes instants: the
    /// default `signedDate`.
    public static var now: Timestamp {
        Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))!
    }

    // MARK: - Payloads

    /// A signed transaction (`Transaction.jwsRepresentation`). Defaults: a new random
    /// transaction ID, the original one equal to it, purchased at `signedDate`, an
    /// auto-renewable subscription expiring a month (30 days) later, reason `PURCHASE`.
    /// `extra` members are added last (and replace any of the same name); a `.null`
    /// removes one.
    public func transaction(productID: String = "ai.screenrig.plus.monthly", appAccountToken: UUID? = nil,
                            environment: String = "Sandbox", signedDate: Timestamp? = nil,
                            transactionID: String? = nil, originalTransactionID: String? = nil,
                            purchaseDate: Timestamp? = nil, expiresDate: Timestamp? = nil, revocationDate: Timestamp? = nil,
                            type: String = "Auto-Renewable Subscription", transactionReason: String = "PURCHASE",
                            extra: [String: JSONValue] = [:]) -> String {
        sign(payload: transactionPayload(productID: productID, appAccountToken: appAccountToken, environment: environment,
                                         signedDate: signedDate, transactionID: transactionID,
                                         originalTransactionID: originalTransactionID, purchaseDate: purchaseDate,
                                         expiresDate: expiresDate, revocationDate: revocationDate, type: type,
                                         transactionReason: transactionReason, extra: extra))
    }

    /// The payload `transaction(…)` signs.
    public func transactionPayload(productID: String = "ai.screenrig.plus.monthly", appAccountToken: UUID? = nil,
                                   environment: String = "Sandbox", signedDate: Timestamp? = nil,
                                   transactionID: String? = nil, originalTransactionID: String? = nil,
                                   purchaseDate: Timestamp? = nil, expiresDate: Timestamp? = nil, revocationDate: Timestamp? = nil,
                                   type: String = "Auto-Renewable Subscription", transactionReason: String = "PURCHASE",
                                   extra: [String: JSONValue] = [:]) -> JSONValue {
        let signed = signedDate ?? Self.now
        let purchased = purchaseDate ?? signed
        let id = transactionID ?? Self.newTransactionID()
        var members: [String: JSONValue] = [
            "transactionId": .string(id),
            "originalTransactionId": .string(originalTransactionID ?? id),
            "webOrderLineItemId": .string(Self.newTransactionID()),
            "bundleId": .string(bundleID),
            "productId": .string(productID),
            "subscriptionGroupIdentifier": "21000001",
            "purchaseDate": Self.milliseconds(purchased),
            "originalPurchaseDate": Self.milliseconds(purchased),
            "quantity": 1,
            "type": .string(type),
            "inAppOwnershipType": "PURCHASED",
            "signedDate": Self.milliseconds(signed),
            "environment": .string(environment),
            "transactionReason": .string(transactionReason),
            "storefront": "USA",
            "storefrontId": "143441",
            "price": 9990,
            "currency": "USD",
        ]
        if type == "Auto-Renewable Subscription" {
            members["expiresDate"] = Self.milliseconds(expiresDate ?? Timestamp(microseconds: purchased.microseconds + 30 * 86_400_000_000)!)
        } else if let expiresDate {
            members["expiresDate"] = Self.milliseconds(expiresDate)
        }
        if let appAccountToken { members["appAccountToken"] = .string(appAccountToken.uuidString.lowercased()) }
        if let revocationDate {
            members["revocationDate"] = Self.milliseconds(revocationDate)
            members["revocationReason"] = 0
        }
        return Self.merge(members, extra)
    }

    /// Signed renewal info. Defaults: auto-renewing the same product, renewing 30 days
    /// after `signedDate`.
    public func renewalInfo(originalTransactionID: String, productID: String = "ai.screenrig.plus.monthly",
                            autoRenewProductID: String? = nil, autoRenewStatus: Int = 1, environment: String = "Sandbox",
                            signedDate: Timestamp? = nil, renewalDate: Timestamp? = nil,
                            extra: [String: JSONValue] = [:]) -> String {
        sign(payload: renewalInfoPayload(originalTransactionID: originalTransactionID, productID: productID,
                                         autoRenewProductID: autoRenewProductID, autoRenewStatus: autoRenewStatus,
                                         environment: environment, signedDate: signedDate, renewalDate: renewalDate, extra: extra))
    }

    /// The payload `renewalInfo(…)` signs.
    public func renewalInfoPayload(originalTransactionID: String, productID: String = "ai.screenrig.plus.monthly",
                                   autoRenewProductID: String? = nil, autoRenewStatus: Int = 1, environment: String = "Sandbox",
                                   signedDate: Timestamp? = nil, renewalDate: Timestamp? = nil,
                                   extra: [String: JSONValue] = [:]) -> JSONValue {
        let signed = signedDate ?? Self.now
        let members: [String: JSONValue] = [
            "originalTransactionId": .string(originalTransactionID),
            "productId": .string(productID),
            "autoRenewProductId": .string(autoRenewProductID ?? productID),
            "autoRenewStatus": .integer(Int64(autoRenewStatus)),
            "signedDate": Self.milliseconds(signed),
            "environment": .string(environment),
            "recentSubscriptionStartDate": Self.milliseconds(signed),
            "renewalDate": Self.milliseconds(renewalDate ?? Timestamp(microseconds: signed.microseconds + 30 * 86_400_000_000)!),
            "renewalPrice": 9990,
            "currency": "USD",
        ]
        return Self.merge(members, extra)
    }

    /// A signed notification (the `signedPayload` Apple posts), carrying the signed
    /// `transaction` and `renewal` given (made with this signer or another).
    public func notification(type: String, subtype: String? = nil, transaction: String? = nil, renewal: String? = nil,
                             environment: String = "Sandbox", signedDate: Timestamp? = nil,
                             notificationUUID: UUID = UUID(), status: Int? = 1, extra: [String: JSONValue] = [:]) -> String {
        sign(payload: notificationPayload(type: type, subtype: subtype, transaction: transaction, renewal: renewal,
                                          environment: environment, signedDate: signedDate,
                                          notificationUUID: notificationUUID, status: status, extra: extra))
    }

    /// The payload `notification(…)` signs; `extra` goes to the top level.
    public func notificationPayload(type: String, subtype: String? = nil, transaction: String? = nil, renewal: String? = nil,
                                    environment: String = "Sandbox", signedDate: Timestamp? = nil,
                                    notificationUUID: UUID = UUID(), status: Int? = 1,
                                    extra: [String: JSONValue] = [:]) -> JSONValue {
        var data: [String: JSONValue] = [
            "appAppleId": 6_450_000_000,
            "bundleId": .string(bundleID),
            "bundleVersion": "1",
            "environment": .string(environment),
        ]
        if let transaction { data["signedTransactionInfo"] = .string(transaction) }
        if let renewal { data["signedRenewalInfo"] = .string(renewal) }
        if let status { data["status"] = .integer(Int64(status)) }
        var members: [String: JSONValue] = [
            "notificationType": .string(type),
            "notificationUUID": .string(notificationUUID.uuidString.lowercased()),
            "version": "2.0",
            "signedDate": Self.milliseconds(signedDate ?? Self.now),
            "data": .object(data),
        ]
        if let subtype { members["subtype"] = .string(subtype) }
        return Self.merge(members, extra)
    }

    // MARK: - Signing

    /// The header Apple writes: `{"alg":"ES256","x5c":[…]}`, certificates in standard base64.
    public var header: JSONValue {
        ["alg": "ES256", "x5c": .array(certificates.map { .string(Data($0).base64EncodedString()) })]
    }

    /// `payload` signed under `header` (by default this signer's).
    public func sign(payload: JSONValue, header: JSONValue? = nil) -> String {
        sign(headerText: (header ?? self.header).compactText(), payloadText: payload.compactText())
    }

    /// The JSON texts given, base64url-encoded and signed with ES256 as they are: for
    /// headers and payloads no well-behaved signer would write.
    public func sign(headerText: String, payloadText: String) -> String {
        let input = Base64URL.encode(Array(headerText.utf8)) + "." + Base64URL.encode(Array(payloadText.utf8))
        return input + "." + Base64URL.encode(key.sign(Array(input.utf8)))
    }

    static func milliseconds(_ instant: Timestamp) -> JSONValue { .integer(instant.microseconds / 1000) }

    /// A 16-digit number, like Apple's transaction IDs.
    static func newTransactionID() -> String {
        String(Int64.random(in: 2_000_000_000_000_000...2_999_999_999_999_999))
    }

    private static func merge(_ members: [String: JSONValue], _ extra: [String: JSONValue]) -> JSONValue {
        var members = members
        for (key, value) in extra {
            if value == .null { members[key] = nil } else { members[key] = value }
        }
        return .object(members)
    }
}
