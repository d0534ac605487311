import LedgerJSON

/// What a subscription's stream (`appstore-sub-<originalTransactionId>`) holds, read from
/// the log itself rather than the organizations projection: a transaction a notification
/// recorded a moment ago is known whether or not the projector has folded it (T5), and so
/// is the holder a post of the app recorded.
public struct AppStoreSubscriptionLog: Sendable, Hashable {
    /// The transaction ids recorded (as stored: `ExternalID.value`).
    public private(set) var transactions: Set<String> = []
    /// The first person who presented one of its transactions through the app.
    public private(set) var holder: String?

    public init(transactions: Set<String> = [], holder: String? = nil) {
        self.transactions = transactions
        self.holder = holder
    }

    /// Folds the stream's events (type and data, in order); other types are skipped.
    public init(_ events: [(type: String, data: JSONValue)]) throws {
        let decoder = JSONValueDecoder()
        for event in events {
            switch event.type {
            case AppStoreTransactionRecorded.type:
                let e = try decoder.decode(AppStoreTransactionRecorded.self, from: event.data)
                transactions.insert(e.transactionID)
                holder = holder ?? e.personID
            case AppStoreSubscriptionClaimed.type:
                let e = try decoder.decode(AppStoreSubscriptionClaimed.self, from: event.data)
                holder = holder ?? e.personID
            default:
                break
            }
        }
    }

    public func contains(transaction id: String) -> Bool { transactions.contains(id) }
}
