import LedgerDomain
import LedgerJSON

/// Verifies Apple's signed payloads (T3, N2): the JWS (three base64url parts, `alg`
/// ES256, the `x5c` chain to a trusted root with Apple's marks, valid at the payload's
/// `signedDate`, the signature), then what the payload says (bundle ID, environment).
///
/// The product and `appAccountToken` are exposed, not checked: they need an organization.
/// Cheap to make and safe to share between threads; the work worth keeping (parsed roots,
/// verified chains) lives in the policy.
public struct AppStoreVerifier: Sendable {
    /// The roots trusted and the environments accepted.
    public let policy: AppStoreEnvironmentPolicy
    /// The app whose payloads are accepted.
    public let bundleID: String
    /// When set, chains are checked at this instant instead of each payload's
    /// `signedDate`; for tests (an expired leaf checked "now").
    var verificationTime: Timestamp?

    /// A verifier for `bundleID`'s payloads under `policy`.
    public init(policy: AppStoreEnvironmentPolicy, bundleID: String = "ai.screenrig.app") {
        self.policy = policy
        self.bundleID = bundleID
    }

    /// A StoreKit 2 signed transaction (`Transaction.jwsRepresentation`): signature,
    /// chain, OIDs, validity at `signedDate`, bundle ID, environment policy.
    public func verifyTransaction(_ jws: String) throws(AppStoreError) -> AppStoreTransaction {
        try transaction(from: signed(jws), rule: .policy)
    }

    /// Signed renewal info: signature, chain, OIDs, validity at `signedDate`, environment
    /// policy (it names no bundle ID).
    public func verifyRenewalInfo(_ jws: String) throws(AppStoreError) -> AppStoreRenewalInfo {
        try renewalInfo(from: signed(jws), rule: .policy)
    }

    /// A notification's `signedPayload`, then its nested `signedTransactionInfo` and
    /// `signedRenewalInfo`, each verified the same way (an error in one names it).
    public func verifyNotification(_ jws: String) throws(AppStoreError) -> AppStoreNotification {
        try notification(from: signed(jws), rule: .policy)
    }

    /// Any of the three kinds, told apart by the payload (`notificationType`, else
    /// `transactionId`, else renewal info), for `ledger appstore verify`. With
    /// `expectedEnvironment` the payload (and any nested one) must name exactly that
    /// environment, instead of one the policy accepts; `Xcode` stays refused under the
    /// production policy either way, as do the roots the policy does not trust.
    public func verifyAny(_ jws: String, expectedEnvironment: String?) throws(AppStoreError) -> AppStoreVerified {
        let rule: EnvironmentRule = expectedEnvironment.map { .exactly($0) } ?? .policy
        let signed = try signed(jws)
        if signed.payload["notificationType"] != nil { return .notification(try notification(from: signed, rule: rule)) }
        if signed.payload["transactionId"] != nil { return .transaction(try transaction(from: signed, rule: rule)) }
        if signed.payload["originalTransactionId"] != nil { return .renewalInfo(try renewalInfo(from: signed, rule: rule)) }
        throw AppStoreError(.malformedPayload, "the payload is neither a transaction, renewal info nor a notification")
    }

    // MARK: - Steps

    enum EnvironmentRule {
        /// One the policy accepts.
        case policy
        /// Exactly this one.
        case exactly(String)
    }

    private func signed(_ jws: String) throws(AppStoreError) -> SignedPayload {
        try SignedPayloadVerifier(trust: policy.trust, allowsSelfSigned: !policy.isProduction, verificationTime: verificationTime)
            .verify(jws)
    }

    private func transaction(from signed: SignedPayload, rule: EnvironmentRule) throws(AppStoreError) -> AppStoreTransaction {
        let transaction = try AppStoreTransaction(payload: signed.payload)
        try checkBundle(transaction.bundleID)
        try checkEnvironment(transaction.environment, rule: rule, signed: signed)
        return transaction
    }

    private func renewalInfo(from signed: SignedPayload, rule: EnvironmentRule) throws(AppStoreError) -> AppStoreRenewalInfo {
        let renewalInfo = try AppStoreRenewalInfo(payload: signed.payload)
        try checkEnvironment(renewalInfo.environment, rule: rule, signed: signed)
        return renewalInfo
    }

    private func notification(from signed: SignedPayload, rule: EnvironmentRule) throws(AppStoreError) -> AppStoreNotification {
        let contents = try NotificationContents(payload: signed.payload)
        try checkBundle(contents.bundleID)
        try checkEnvironment(contents.environment, rule: rule, signed: signed)
        var transaction: AppStoreTransaction?
        if let jws = contents.signedTransactionInfo {
            do throws(AppStoreError) { transaction = try self.transaction(from: self.signed(jws), rule: rule) } catch { throw error.within("signedTransactionInfo") }
        }
        var renewalInfo: AppStoreRenewalInfo?
        if let jws = contents.signedRenewalInfo {
            do throws(AppStoreError) { renewalInfo = try self.renewalInfo(from: self.signed(jws), rule: rule) } catch { throw error.within("signedRenewalInfo") }
        }
        return AppStoreNotification(contents: contents, transaction: transaction, renewalInfo: renewalInfo, payload: signed.payload)
    }

    private func checkBundle(_ payloadBundleID: String) throws(AppStoreError) {
        // Bundle IDs are compared byte for byte: Apple writes them as registered.
        guard payloadBundleID.utf8.elementsEqual(bundleID.utf8) else {
            throw AppStoreError(.bundleMismatch, "the payload is for \(payloadBundleID), not \(bundleID)")
        }
    }

    private func checkEnvironment(_ environment: String, rule: EnvironmentRule, signed: SignedPayload) throws(AppStoreError) {
        let xcode = AppStoreEnvironmentPolicy.Environment.xcode
        // Xcode signs locally with its own certificate; such a signature vouches for
        // nothing but Xcode's test purchases.
        if signed.isSelfSigned, environment != xcode {
            throw AppStoreError(.environmentNotAllowed, "a JWS signed by a single self-signed certificate must name Xcode, this one names \(environment)")
        }
        if policy.isProduction, environment == xcode {
            throw AppStoreError(.environmentNotAllowed, "Xcode payloads are never accepted in production")
        }
        switch rule {
        case .policy:
            guard policy.allowedEnvironments.contains(environment) else {
                throw AppStoreError(.environmentNotAllowed,
                    "environment \(environment) is not accepted \(policy.isProduction ? "in production" : "outside production")")
            }
        case .exactly(let expected):
            guard environment == expected else {
                throw AppStoreError(.environmentNotAllowed, "the payload names environment \(environment), not \(expected)")
            }
        }
    }
}
