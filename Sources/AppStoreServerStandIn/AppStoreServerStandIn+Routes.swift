import AppStore
import Foundation
import HTTP
import LedgerJSON

extension AppStoreServerStandIn {
    typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    func routes(_ router: inout Router) {
        let endpoints: [(String, String, Handler)] = [
            ("GET", "/inApps/v1/transactions/{id}", { [unowned self] in transactionInfo($0) }),
            ("GET", "/inApps/v2/history/{id}", { [unowned self] in transactionHistory($0, refunds: false) }),
            ("GET", "/inApps/v2/refund/lookup/{id}", { [unowned self] in transactionHistory($0, refunds: true) }),
            ("GET", "/inApps/v1/subscriptions/{id}", { [unowned self] in subscriptionStatuses($0) }),
            ("POST", "/inApps/v1/notifications/history", { [unowned self] in notificationHistory($0) }),
            ("GET", "/inApps/v1/lookup/{id}", { [unowned self] in orderLookup($0) }),
            ("PUT", "/inApps/v1/transactions/consumption/{id}", { [unowned self] in consumption($0) }),
            ("POST", "/inApps/v1/notifications/test", { [unowned self] in requestTestNotification($0) }),
            ("GET", "/inApps/v1/notifications/test/{id}", { [unowned self] in testNotificationStatus($0) }),
            ("PUT", "/inApps/v1/subscriptions/extend/{id}", { [unowned self] in extend($0) }),
        ]
        for (method, pattern, handler) in endpoints {
            router.add(method, pattern) { [unowned self] request in
                let response = answer(request, handler)
                state.withLock { $0.requests.append(Request(method: request.method, path: request.path, status: response.status)) }
                return response
            }
        }
    }

    /// The token check, then a fault if one is queued, then the endpoint.
    private func answer(_ request: HTTPRequest, _ handler: Handler) -> HTTPResponse {
        if let reason = refusal(of: request) {
            state.withLock { $0.refusals.append(reason) }
            return .text("Unauthenticated\n\nRequest ID: stand-in\n", status: 401)
        }
        if let fault = state.withLock({ $0.faults.isEmpty ? nil : $0.faults.removeFirst() }) {
            var response = fault.body.map { HTTPResponse.json($0, status: fault.status) } ?? .text("", status: fault.status)
            if let after = fault.retryAfter { response.headers.replaceOrAdd(name: "Retry-After", value: after) }
            return response
        }
        return handler(request)
    }

    static func appleError(_ status: Int, _ code: Int64, _ message: String) -> HTTPResponse {
        .json(["errorCode": .integer(code), "errorMessage": .string(message)] as JSONValue, status: status)
    }

    /// The transaction named by `id` (its own id or its original's), or nil.
    private func customer(of id: String, in s: AppStoreServerStandInState) -> String? {
        s.transactions.last { $0.transactionID == id || $0.originalTransactionID == id }?.customer
    }

    static func isTransactionID(_ id: String) -> Bool { !id.isEmpty && id.allSatisfy(\.isNumber) }

    // MARK: - Transactions

    private func transactionInfo(_ request: HTTPRequest) -> HTTPResponse {
        let id = request.pathParameters["id"] ?? ""
        guard Self.isTransactionID(id) else { return Self.appleError(400, 4_000_006, "Invalid transaction id.") }
        guard let jws = state.withLock({ s in s.transactions.last { $0.transactionID == id }?.jws }) else {
            return Self.appleError(404, 4_040_010, "Transaction id not found.")
        }
        return .json(["signedTransactionInfo": .string(jws)] as JSONValue)
    }

    /// Transaction history (`refunds` false) or refund history (revoked ones only), paged
    /// by `revision`: an opaque token of the offset reached (standard base64, so that it
    /// holds `=`, as Apple's do, and a client must escape it).
    private func transactionHistory(_ request: HTTPRequest, refunds: Bool) -> HTTPResponse {
        let id = request.pathParameters["id"] ?? ""
        guard Self.isTransactionID(id) else { return Self.appleError(400, 4_000_006, "Invalid transaction id.") }
        var offset = 0
        if let revision = request.query("revision") {
            guard let text = Data(base64Encoded: revision).flatMap({ String(data: $0, encoding: .utf8) }),
                  text.hasPrefix("revision:"), let n = Int(text.dropFirst("revision:".count)) else {
                return Self.appleError(400, 4_000_005, "Invalid request revision.")
            }
            offset = n
        }
        let values = { (name: String) in request.queryItems.filter { $0.name == name }.map(\.value) }
        let start = request.query("startDate").flatMap { Int64($0) }
        let end = request.query("endDate").flatMap { Int64($0) }
        let revoked = request.query("revoked").map { $0 == "true" }
        let (selected, found) = state.withLock { s -> ([String], Bool) in
            guard let customer = customer(of: id, in: s) else { return ([], false) }
            var chosen = s.transactions.filter { t in
                t.customer == customer && (!refunds || t.revoked)
                    && (start.map { t.purchaseDate >= $0 } ?? true) && (end.map { t.purchaseDate < $0 } ?? true)
                    && (values("productId").isEmpty || values("productId").contains(t.productID))
                    && (values("productType").isEmpty || values("productType").contains(t.productType))
                    && (values("subscriptionGroupIdentifier").isEmpty || values("subscriptionGroupIdentifier").contains(t.subscriptionGroup ?? ""))
                    && (request.query("inAppOwnershipType").map { t.ownership == $0 } ?? true)
                    && (revoked.map { t.revoked == $0 } ?? true)
            }
            if request.query("sort") == "DESCENDING" { chosen.reverse() }
            return (chosen.map(\.jws), true)
        }
        guard found else { return Self.appleError(404, 4_040_010, "Transaction id not found.") }
        let page = Array(selected.dropFirst(offset).prefix(configuration.pageSize))
        let reached = min(selected.count, offset + page.count)
        return .json([
            "revision": .string(Data("revision:\(reached)".utf8).base64EncodedString()),
            "hasMore": .bool(reached < selected.count),
            "bundleId": .string(configuration.bundleID),
            "appAppleId": .integer(configuration.appAppleID),
            "environment": .string(configuration.environment),
            "signedTransactions": .array(page.map { .string($0) }),
        ] as JSONValue)
    }

    private func subscriptionStatuses(_ request: HTTPRequest) -> HTTPResponse {
        let id = request.pathParameters["id"] ?? ""
        guard Self.isTransactionID(id) else { return Self.appleError(400, 4_000_006, "Invalid transaction id.") }
        let wanted = Set(request.queryItems.filter { $0.name == "status" }.compactMap { Int64($0.value) })
        let groups = state.withLock { s -> [String: [JSONValue]]? in
            guard let customer = customer(of: id, in: s) else { return nil }
            var groups: [String: [JSONValue]] = [:]
            var seen: Set<String> = []
            // The latest transaction of each subscription of the customer, newest last.
            for t in s.transactions.reversed() where t.customer == customer && t.productType == "AUTO_RENEWABLE" {
                guard seen.insert(t.originalTransactionID).inserted, let renewal = s.renewalInfos[t.originalTransactionID] else { continue }
                let status = s.statuses[t.originalTransactionID] ?? 1
                guard wanted.isEmpty || wanted.contains(status) else { continue }
                groups[t.subscriptionGroup ?? "", default: []].append([
                    "originalTransactionId": .string(t.originalTransactionID), "status": .integer(status),
                    "signedTransactionInfo": .string(t.jws), "signedRenewalInfo": .string(renewal),
                ])
            }
            return groups
        }
        guard let groups else { return Self.appleError(404, 4_040_010, "Transaction id not found.") }
        return .json([
            "environment": .string(configuration.environment),
            "bundleId": .string(configuration.bundleID),
            "appAppleId": .integer(configuration.appAppleID),
            "data": .array(groups.keys.sorted().map { ["subscriptionGroupIdentifier": .string($0), "lastTransactions": .array(groups[$0]!)] }),
        ] as JSONValue)
    }

    private func orderLookup(_ request: HTTPRequest) -> HTTPResponse {
        let order = request.pathParameters["id"] ?? ""
        let jws = state.withLock { s -> [String]? in
            s.orders[order].map { ids in ids.compactMap { id in s.transactions.last { $0.transactionID == id }?.jws } }
        }
        return .json(["status": .integer(jws == nil ? 1 : 0), "signedTransactions": .array((jws ?? []).map { .string($0) })] as JSONValue)
    }
}
