import Foundation
import LedgerJSON

/// What the stand-in holds, behind its lock.
struct AppStoreServerStandInState {
    struct Notification {
        var jws: String
        var signedDate: Int64
        var type: String
        var subtype: String?
        var transactionIDs: Set<String>
        var attempts: [(date: Int64, result: String)]
    }

    struct Transaction {
        var jws: String
        var transactionID: String
        var originalTransactionID: String
        var productID: String
        var productType: String
        var subscriptionGroup: String?
        var purchaseDate: Int64
        var revoked: Bool
        var ownership: String
        /// Transactions with the same customer make one history.
        var customer: String
    }

    struct Fault {
        var status: Int
        var retryAfter: String?
        var body: JSONValue?
    }

    var notifications: [Notification] = []
    var transactions: [Transaction] = []
    var renewalInfos: [String: String] = [:]
    var statuses: [String: Int64] = [:]
    var orders: [String: [String]] = [:]
    var testNotifications: [String: String] = [:]
    var consumption: [String: JSONValue] = [:]
    var extensions: [String: JSONValue] = [:]
    var faults: [Fault] = []
    var requests: [AppStoreServerStandIn.Request] = []
    var refusals: [String] = []
}
