import AppStore
import AppStoreServerAPI
import AppStoreServerStandIn
import Foundation
import LedgerDomain
import LedgerJSON
import Synchronization
import TestSupport

/// A stand-in for Apple on loopback and clients of it: one In-App Purchase key, one clock
/// both sides read (moved by hand), and a retry policy whose sleeps are recorded, not slept.
final class StandInFixture: Sendable {
    static let issuerID = "57246542-96fe-1a63-e053-0824d011072a"
    static let keyID = "2X9R4HXF34"
    static let bundleID = "ai.screenrig.app"
    static let appAppleID: Int64 = 6_450_000_000

    let key = AppStoreSigningKey()
    let signer = TestAppStoreSigner()
    let standIn: AppStoreServerStandIn
    /// The shared clock and the recorded sleeps, in a class of their own so that closures can hold them.
    final class Box: Sendable {
        let now = Mutex(Date())
        let sleeps = Mutex<[Double]>([])
    }
    let box = Box()
    private let clients = Mutex<[AppStoreServerAPIClient]>([])

    init(pageSize: Int = 20) throws {
        let box = self.box
        standIn = try AppStoreServerStandIn(configuration: AppStoreServerStandInConfiguration(
            issuerID: Self.issuerID, keyID: Self.keyID, bundleID: Self.bundleID, key: key, signer: signer,
            appAppleID: Self.appAppleID, pageSize: pageSize, clock: { box.now.withLock { $0 } }))
    }

    var clock: @Sendable () -> Date { { [box] in box.now.withLock { $0 } } }

    func advance(seconds: Double) { box.now.withLock { $0 = $0.addingTimeInterval(seconds) } }

    var credentials: AppStoreServerAPICredentials {
        AppStoreServerAPICredentials(issuerID: Self.issuerID, keyID: Self.keyID, bundleID: Self.bundleID, key: key)
    }

    /// A client of the stand-in. `random` is the jitter's source (0.5 by default).
    func client(credentials: AppStoreServerAPICredentials? = nil, clockOffset: Double = 0, maximumAttempts: Int = 5,
                maximumRetryAfter: Double = 60, random: @escaping @Sendable () -> Double = { 0.5 },
                policy: AppStoreEnvironmentPolicy = TestCertificateAuthority.shared.developmentPolicy,
                appAppleID: Int64? = appAppleID) -> AppStoreServerAPIClient {
        let box = self.box
        let retry = AppStoreServerAPIRetryPolicy(maximumAttempts: maximumAttempts, baseDelay: 1, maximumDelay: 8,
                                                 maximumRetryAfter: maximumRetryAfter,
                                                 sleep: { seconds in box.sleeps.withLock { $0.append(seconds) } }, random: random)
        let configuration = AppStoreServerAPIConfiguration(
            credentials: credentials ?? self.credentials, environment: .local(baseURL: standIn.baseURL), appAppleID: appAppleID,
            verificationPolicy: policy, timeout: 10, retry: retry)
        let base = clock
        let client = AppStoreServerAPIClient(configuration: configuration, clock: { base().addingTimeInterval(clockOffset) })
        clients.withLock { $0.append(client) }
        return client
    }

    var recordedSleeps: [Double] { box.sleeps.withLock { $0 } }

    /// A subscription's transaction signed by the fixture's signer and given to the stand-in.
    @discardableResult
    func addTransaction(id: String? = nil, original: String? = nil, productID: String = "ai.screenrig.plus.monthly",
                        purchasedMillisecondsAgo: Int64 = 0, revoked: Bool = false, customer: String? = nil) -> AppStoreTransaction {
        let purchased = Timestamp(milliseconds: Int64(clock().timeIntervalSince1970 * 1000) - purchasedMillisecondsAgo)!
        let payload = signer.transactionPayload(productID: productID, transactionID: id, originalTransactionID: original,
                                                purchaseDate: purchased, revocationDate: revoked ? purchased : nil)
        standIn.add(transactionPayload: payload, customer: customer)
        return try! AppStoreTransaction(payload: payload)
    }

    /// A notification about a new transaction, signed by the fixture's signer, in the
    /// stand-in's history as not delivered (or delivered with `delivered`).
    @discardableResult
    func addNotification(type: String = "DID_RENEW", secondsAgo: Double = 60, delivered: Bool = false,
                         transactionID: String? = nil) -> UUID {
        let uuid = UUID()
        let signed = Timestamp(milliseconds: Int64(clock().addingTimeInterval(-secondsAgo).timeIntervalSince1970 * 1000))!
        let transaction = signer.transaction(signedDate: signed, transactionID: transactionID)
        standIn.add(notification: signer.notification(type: type, transaction: transaction, signedDate: signed, notificationUUID: uuid),
                    attempts: delivered ? ["SUCCESS"] : ["UNSUCCESSFUL_HTTP_RESPONSE_CODE", "TIMED_OUT"])
        return uuid
    }

    deinit {
        for client in clients.withLock({ $0 }) { client.close() }
        standIn.stop()
    }
}
