import AppStore
import LedgerJSON

extension AppStoreServerAPIClient {
    /// Get Transaction Info (`GET /inApps/v1/transactions/{transactionId}`): one transaction,
    /// any of the customer's ids, verified.
    public func transactionInfo(transactionID: String) throws(AppStoreServerAPIError) -> AppStoreSignedValue<AppStoreTransaction> {
        let fields = try AnswerFields(try call("GET", "/inApps/v1/transactions/" + Self.segment(transactionID)),
                                      endpoint: "Get Transaction Info")
        return try verifiedTransaction(try fields.string("signedTransactionInfo"), in: "signedTransactionInfo")
    }

    /// One page of Get Transaction History v2 (`GET /inApps/v2/history/{transactionId}`):
    /// the first with `revision` nil, the next with the revision the previous page gave, and
    /// the same `query`.
    public func transactionHistoryPage(transactionID: String, query: AppStoreTransactionHistoryQuery = AppStoreTransactionHistoryQuery(),
                                       revision: String? = nil) throws(AppStoreServerAPIError) -> AppStoreTransactionPage {
        var parameters = query.parameters
        if let revision { parameters.insert(("revision", revision), at: 0) }
        let answer = try call("GET", "/inApps/v2/history/" + Self.segment(transactionID), query: parameters)
        return try transactionPage(answer, endpoint: "Get Transaction History")
    }

    /// Every transaction of the customer that `query` selects, walking the revisions.
    public func transactionHistory(transactionID: String,
                                   query: AppStoreTransactionHistoryQuery = AppStoreTransactionHistoryQuery()) throws(AppStoreServerAPIError)
        -> [AppStoreSignedValue<AppStoreTransaction>] {
        try walkRevisions("Get Transaction History") { revision throws(AppStoreServerAPIError) in
            try transactionHistoryPage(transactionID: transactionID, query: query, revision: revision)
        }
    }

    /// One page of Get Refund History v2 (`GET /inApps/v2/refund/lookup/{transactionId}`).
    public func refundHistoryPage(transactionID: String, revision: String? = nil) throws(AppStoreServerAPIError) -> AppStoreTransactionPage {
        let answer = try call("GET", "/inApps/v2/refund/lookup/" + Self.segment(transactionID),
                              query: revision.map { [("revision", $0)] } ?? [])
        return try transactionPage(answer, endpoint: "Get Refund History")
    }

    /// Every refunded or revoked transaction of the customer, walking the revisions.
    public func refundHistory(transactionID: String) throws(AppStoreServerAPIError) -> [AppStoreSignedValue<AppStoreTransaction>] {
        try walkRevisions("Get Refund History") { revision throws(AppStoreServerAPIError) in
            try refundHistoryPage(transactionID: transactionID, revision: revision)
        }
    }

    /// Look Up Order ID (`GET /inApps/v1/lookup/{orderId}`): the transactions of the order id
    /// on a customer's App Store receipt.
    public func lookUpOrder(orderID: String) throws(AppStoreServerAPIError) -> AppStoreOrderLookup {
        let fields = try AnswerFields(try call("GET", "/inApps/v1/lookup/" + Self.segment(orderID)), endpoint: "Look Up Order ID")
        guard let status = try fields.optionalInt64("status") else {
            throw AppStoreServerAPIError(.malformedAnswer, "Look Up Order ID: `status` should be an integer")
        }
        return AppStoreOrderLookup(status: status, transactions: try signedTransactions(fields))
    }

    // MARK: - Pages

    private func transactionPage(_ answer: JSONValue?, endpoint: String) throws(AppStoreServerAPIError) -> AppStoreTransactionPage {
        let fields = try AnswerFields(answer, endpoint: endpoint)
        let hasMore = try fields.bool("hasMore", default: false)
        let revision = try fields.optionalString("revision")
        if hasMore && revision == nil {
            throw AppStoreServerAPIError(.malformedAnswer, "\(endpoint): `hasMore` without a `revision`")
        }
        return AppStoreTransactionPage(transactions: try signedTransactions(fields), hasMore: hasMore, revision: revision,
                                       bundleID: try fields.optionalString("bundleId"), appAppleID: try fields.optionalInt64("appAppleId"),
                                       environment: try fields.optionalString("environment"))
    }

    private func signedTransactions(_ fields: AnswerFields) throws(AppStoreServerAPIError) -> [AppStoreSignedValue<AppStoreTransaction>] {
        var out: [AppStoreSignedValue<AppStoreTransaction>] = []
        for (index, value) in try fields.array("signedTransactions").enumerated() {
            guard let jws = value.stringValue else {
                throw AppStoreServerAPIError(.malformedAnswer, "\(fields.endpoint): `signedTransactions[\(index)]` should be a string")
            }
            out.append(try verifiedTransaction(jws, in: "signedTransactions[\(index)]"))
        }
        return out
    }

    private func walkRevisions(_ endpoint: String, _ page: (String?) throws(AppStoreServerAPIError) -> AppStoreTransactionPage)
        throws(AppStoreServerAPIError) -> [AppStoreSignedValue<AppStoreTransaction>] {
        var all: [AppStoreSignedValue<AppStoreTransaction>] = []
        var revision: String?
        for _ in 0..<Self.maximumPages {
            let next = try page(revision)
            all += next.transactions
            guard next.hasMore else { return all }
            guard next.revision != revision else {
                throw AppStoreServerAPIError(.malformedAnswer, "\(endpoint) gave the same revision twice")
            }
            revision = next.revision
        }
        throw AppStoreServerAPIError(.malformedAnswer, "\(endpoint) had more than \(Self.maximumPages) pages")
    }
}
