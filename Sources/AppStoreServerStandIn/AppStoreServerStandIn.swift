import AppStore
import Foundation
import HTTP
import LedgerJSON
import Observability
import Synchronization

/// A stand-in for Apple's App Store Server API on loopback, for tests and `ledger dev`. It
/// checks each request's JWT as Apple does (401 otherwise), answers from the transactions
/// and notifications it was given, signed with the test authority so that the verifier's
/// development policy accepts them, pages as Apple pages (notification history by
/// `paginationToken`, transaction and refund history by `revision`, `pageSize` records a
/// page), and can be told to fail the next requests (429 with `Retry-After`, 5xx).
///
/// Endpoints: Get Transaction Info, Get Transaction History v2, Get All Subscription
/// Statuses, Get Notification History, Get Refund History v2, Look Up Order ID, Send
/// Consumption Information, Request a Test Notification, Get Test Notification Status,
/// Extend a Subscription Renewal Date. Apple's errors are answered in Apple's shape
/// (`errorCode`, `errorMessage`).
public final class AppStoreServerStandIn: Sendable {
    /// One request the stand-in received, whatever it answered.
    public struct Request: Sendable, Equatable {
        public var method: String
        public var path: String
        public var status: Int
    }

    public let configuration: AppStoreServerStandInConfiguration
    let state = Mutex(AppStoreServerStandInState())
    private let server: Mutex<HTTPServer?> = Mutex(nil)

    /// Starts the stand-in on `127.0.0.1`, on `port` (0: any free one).
    public init(configuration: AppStoreServerStandInConfiguration, port: Int = 0) throws {
        self.configuration = configuration
        var router = Router()
        routes(&router)
        developerRoutes(&router)
        let http = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: port, threads: 4), router: router,
                              logger: Logger(minimumLevel: .error))
        try http.start()
        server.withLock { $0 = http }
    }

    /// `http://127.0.0.1:<port>`: the client's `AppStoreServerAPIEnvironment.local` base URL.
    public var baseURL: String { "http://127.0.0.1:\(server.withLock { $0?.port ?? 0 })" }

    public func stop() {
        let http = server.withLock { s -> HTTPServer? in
            defer { s = nil }
            return s
        }
        http?.shutdown(gracePeriod: 1)
    }

    deinit { stop() }

    // MARK: - What it holds

    /// Adds a signed transaction (made with any signer: one the client's policy does not
    /// trust tests the client's refusal). `customer` groups a history (by default the
    /// original transaction id).
    public func add(transaction jws: String, customer: String? = nil) {
        let p = AppStoreVerifier.unverifiedPayload(of: jws) ?? [:]
        let id = p["transactionId"]?.stringValue ?? UUID().uuidString
        let original = p["originalTransactionId"]?.stringValue ?? id
        let type = p["type"]?.stringValue ?? ""
        let productType = switch type {
        case "Auto-Renewable Subscription": "AUTO_RENEWABLE"
        case "Non-Renewing Subscription": "NON_RENEWABLE"
        case "Consumable": "CONSUMABLE"
        default: "NON_CONSUMABLE"
        }
        let transaction = AppStoreServerStandInState.Transaction(
            jws: jws, transactionID: id, originalTransactionID: original, productID: p["productId"]?.stringValue ?? "",
            productType: productType, subscriptionGroup: p["subscriptionGroupIdentifier"]?.stringValue,
            purchaseDate: p["purchaseDate"]?.int64Value ?? 0, revoked: p["revocationDate"] != nil,
            ownership: p["inAppOwnershipType"]?.stringValue ?? "PURCHASED", customer: customer ?? original)
        state.withLock { $0.transactions.append(transaction) }
    }

    /// Signs `payload` with the configured signer and adds it as a transaction.
    @discardableResult
    public func add(transactionPayload payload: JSONValue, customer: String? = nil) -> String {
        let jws = configuration.signer.sign(payload: payload)
        add(transaction: jws, customer: customer)
        return jws
    }

    /// The renewal info and `status` (1 active … 5 revoked) Get All Subscription Statuses
    /// answers for `originalTransactionID`, beside its latest transaction.
    public func setSubscription(originalTransactionID: String, renewalInfo jws: String, status: Int64) {
        state.withLock {
            $0.renewalInfos[originalTransactionID] = jws
            $0.statuses[originalTransactionID] = status
        }
    }

    /// Adds a signed notification to the history, with the results of Apple's attempts to
    /// send it (a failure by default: one the ledger missed).
    public func add(notification jws: String, attempts: [String] = ["UNSUCCESSFUL_HTTP_RESPONSE_CODE"]) {
        let p = AppStoreVerifier.unverifiedPayload(of: jws) ?? [:]
        var ids: Set<String> = []
        // The unverified payload comes with its nested transaction already decoded.
        if let t = p["data"]?["signedTransactionInfo"] {
            for key in ["transactionId", "originalTransactionId"] { if let id = t[key]?.stringValue { ids.insert(id) } }
        }
        let signedDate = p["signedDate"]?.int64Value ?? Self.milliseconds(configuration.clock())
        let notification = AppStoreServerStandInState.Notification(
            jws: jws, signedDate: signedDate, type: p["notificationType"]?.stringValue ?? "", subtype: p["subtype"]?.stringValue,
            transactionIDs: ids, attempts: attempts.map { (signedDate, $0) })
        state.withLock { s in
            // Apple's history is in the order notifications were signed.
            let place = s.notifications.lastIndex { $0.signedDate <= signedDate }.map { $0 + 1 } ?? 0
            s.notifications.insert(notification, at: place)
        }
    }

    /// Look Up Order ID answers these transactions (added with `add(transaction:)`) for `orderID`.
    public func setOrder(_ orderID: String, transactionIDs: [String]) {
        state.withLock { $0.orders[orderID] = transactionIDs }
    }

    /// The next `count` requests (whatever they ask) are answered `status`, with
    /// `Retry-After: retryAfter` when given and Apple's error body when given.
    public func fail(next count: Int, status: Int, retryAfter: String? = nil, body: JSONValue? = nil) {
        state.withLock { $0.faults += Array(repeating: .init(status: status, retryAfter: retryAfter, body: body), count: count) }
    }

    /// Every request received, in order.
    public var requests: [Request] { state.withLock { $0.requests } }
    /// Why each refused token was refused, in order.
    public var tokenRefusals: [String] { state.withLock { $0.refusals } }
    /// The consumption information received, by transaction id.
    public var consumptionReceived: [String: JSONValue] { state.withLock { $0.consumption } }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
}
