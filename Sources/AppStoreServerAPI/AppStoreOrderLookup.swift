import AppStore

/// What Look Up Order ID answers: whether the order id is valid, and its transactions.
public struct AppStoreOrderLookup: Sendable, Equatable {
    /// `status`: 0 when the order id is valid, 1 when it is not.
    public var status: Int64
    public var transactions: [AppStoreSignedValue<AppStoreTransaction>]

    public init(status: Int64, transactions: [AppStoreSignedValue<AppStoreTransaction>]) {
        self.status = status
        self.transactions = transactions
    }

    /// Whether Apple knows the order id.
    public var isValid: Bool { status == 0 }
}
