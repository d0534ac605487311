import API
import AppStore
import AppStoreServerAPI
import AppStoreServerStandIn
import Crypto
import EventStore
import Foundation
import LedgerDomain
import LedgerServices
import Postgres

/// Apple, as `ledger-bench appstore-sync` needs it: a development certificate authority of
/// its own that signs notifications (the API and the history client trust its root and
/// nothing else but Apple's), an In-App Purchase key, stand-ins for Apple's App Store
/// Server API that hold what Apple would have sent, and syncs that ask them as the
/// projector's process does (docs/appstore-server-api.md, "The stand-in").
struct BenchAppStore: Sendable {
    static let bundleID = "ai.screenrig.app"
    static let issuerID = "57246542-96fe-1a63-e053-0824d011072a"
    static let keyID = "BENCH4SYNC"
    /// The stand-in's default app Apple id, which the client checks each notification against.
    static let appAppleID: Int64 = 6_450_000_000

    let authority = AppStoreTestAuthority(name: "Ledger Bench")
    /// The In-App Purchase key the client signs its tokens with and the stand-in checks.
    let key = AppStoreSigningKey()
    let signer: AppStoreTestSigner
    /// Records per page of notification history.
    let pageSize: Int
    let products = AppStoreSettings.defaultProducts

    init(pageSize: Int) {
        signer = AppStoreTestSigner(authority: authority, bundleID: Self.bundleID)
        self.pageSize = pageSize
    }

    /// The API's App Store settings: the default bundle and products, notifications verified
    /// under the development policy that trusts this authority.
    func apiSettings() -> AppStoreSettings {
        AppStoreSettings(bundleID: Self.bundleID, products: products, sessionSecret: SecureRandom.bytes(32), policy: authority.developmentPolicy)
    }

    /// A stand-in for Apple on loopback with an empty notification history, on the real clock.
    func standIn() throws -> AppStoreServerStandIn {
        try AppStoreServerStandIn(configuration: AppStoreServerStandInConfiguration(
            issuerID: Self.issuerID, keyID: Self.keyID, bundleID: Self.bundleID, key: key, signer: signer,
            appAppleID: Self.appAppleID, pageSize: pageSize))
    }

    /// A sync of `standIn`'s history as the projector's process runs one
    /// (`LedgerEnvironment.appStoreHistorySyncs`): its own client, the system clock, Apple's
    /// history as the actor, recording through `store` on `connections`. Close its client
    /// when done (`AppStoreSyncJob.stop` does).
    func sync(of standIn: AppStoreServerStandIn, every: Double, connections: PostgresPool, store: EventStore) -> AppStoreHistorySync {
        let configuration = AppStoreServerAPIConfiguration(
            credentials: AppStoreServerAPICredentials(issuerID: Self.issuerID, keyID: Self.keyID, bundleID: Self.bundleID, key: key),
            environment: .local(baseURL: standIn.baseURL), appAppleID: Self.appAppleID,
            verificationPolicy: authority.developmentPolicy)
        return AppStoreHistorySync(client: AppStoreServerAPIClient(configuration: configuration),
                                   settings: AppStoreHistorySync.Settings(every: every, retryAfterError: min(300, every)),
                                   connections: connections, store: store, products: AppStoreProducts(products), now: SystemClock.now)
    }

    /// A Sandbox SUBSCRIBED (INITIAL_BUY) notification of a new subscription to `plan` for
    /// the organization whose account token is `token`, signed now: what Apple sends when
    /// someone buys a plan in the app.
    func subscribed(_ token: UUID, _ plan: Plan, originalTransactionID: String) -> String {
        let signed = AppStoreTestSigner.now
        let transaction = signer.transaction(productID: products[plan]!, appAccountToken: token, environment: "Sandbox", signedDate: signed,
                                             transactionID: originalTransactionID, originalTransactionID: originalTransactionID,
                                             purchaseDate: signed)
        return signer.notification(type: "SUBSCRIBED", subtype: "INITIAL_BUY", transaction: transaction, environment: "Sandbox",
                                   signedDate: signed, notificationUUID: UUID())
    }
}
