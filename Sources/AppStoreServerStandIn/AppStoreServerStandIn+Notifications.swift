import AppStore
import Crypto
import Foundation
import HTTP
import LedgerJSON

extension AppStoreServerStandIn {
    /// Get Notification History: the body's window and filters, `pageSize` records a page,
    /// and a `paginationToken` bound to the body it was given for (Apple refuses a token
    /// with another request: 4000014).
    func notificationHistory(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = try? JSONValue.parse(request.body), body.objectValue != nil else {
            return Self.appleError(400, 4_000_000, "Invalid request body.")
        }
        guard let start = body["startDate"]?.int64Value else { return Self.appleError(400, 4_000_015, "Invalid start date.") }
        guard let end = body["endDate"]?.int64Value else { return Self.appleError(400, 4_000_016, "Invalid end date.") }
        guard start < end else { return Self.appleError(400, 4_000_013, "Start date after end date.") }
        let now = Self.milliseconds(configuration.clock())
        let retention: Int64 = configuration.environment == "Production" ? 180 : 30
        guard start >= now - retention * 86_400_000 else { return Self.appleError(400, 4_000_012, "Start date too far in past.") }
        let type = body["notificationType"]?.stringValue
        let subtype = body["notificationSubtype"]?.stringValue
        let transactionID = body["transactionId"]?.stringValue
        guard type == nil || transactionID == nil else { return Self.appleError(400, 4_000_019, "Multiple filters supplied.") }
        let onlyFailures = body["onlyFailures"]?.boolValue ?? false
        let fingerprint = Hex.encode(SHA256.hash(body.compactBytes())).prefix(16)

        var offset = 0
        if let token = request.query("paginationToken") {
            let parts = token.split(separator: ".")
            guard parts.count == 2, parts[0] == fingerprint, let n = Int(parts[1]) else {
                return Self.appleError(400, 4_000_014, "Invalid pagination token.")
            }
            offset = n
        }
        let selected = state.withLock { s in
            s.notifications.filter { n in
                n.signedDate >= start && n.signedDate < min(end, now + 1)
                    && (type.map { n.type == $0 } ?? true) && (subtype.map { n.subtype == $0 } ?? true)
                    && (transactionID.map { id in n.transactionIDs.contains(id) } ?? true)
                    && (!onlyFailures || !n.attempts.contains { $0.result == "SUCCESS" })
            }
        }
        let page = selected.dropFirst(offset).prefix(configuration.pageSize)
        let reached = min(selected.count, offset + page.count)
        var answer: [String: JSONValue] = [
            "hasMore": .bool(reached < selected.count),
            "notificationHistory": .array(page.map { n in
                ["signedPayload": .string(n.jws), "sendAttempts": Self.attempts(n.attempts)]
            }),
        ]
        if reached < selected.count { answer["paginationToken"] = .string("\(fingerprint).\(reached)") }
        return .json(JSONValue.object(answer))
    }

    static func attempts(_ attempts: [(date: Int64, result: String)]) -> JSONValue {
        .array(attempts.map { ["attemptDate": .integer($0.date), "sendAttemptResult": .string($0.result)] })
    }

    func requestTestNotification(_ request: HTTPRequest) -> HTTPResponse {
        let token = UUID().uuidString.lowercased() + "_" + String(Self.milliseconds(configuration.clock()))
        let jws = configuration.signer.notification(type: "TEST", environment: configuration.environment, status: nil)
        state.withLock { $0.testNotifications[token] = jws }
        add(notification: jws, attempts: ["SUCCESS"])
        return .json(["testNotificationToken": .string(token)] as JSONValue)
    }

    func testNotificationStatus(_ request: HTTPRequest) -> HTTPResponse {
        let token = request.pathParameters["id"] ?? ""
        guard let jws = state.withLock({ $0.testNotifications[token] }) else {
            return Self.appleError(404, 4_040_008, "Test notification not found.")
        }
        let sent = AppStoreVerifierPayload.signedDate(of: jws) ?? Self.milliseconds(configuration.clock())
        return .json(["signedPayload": .string(jws), "sendAttempts": Self.attempts([(sent, "SUCCESS")])] as JSONValue)
    }

    func consumption(_ request: HTTPRequest) -> HTTPResponse {
        let id = request.pathParameters["id"] ?? ""
        guard Self.isNumeric(id) else { return Self.appleError(400, 4_000_006, "Invalid transaction id.") }
        guard let body = try? JSONValue.parse(request.body), body["customerConsented"]?.boolValue == true else {
            return Self.appleError(400, 4_000_000, "Invalid request.")
        }
        guard state.withLock({ s in s.transactions.contains { $0.transactionID == id } }) else {
            return Self.appleError(404, 4_040_010, "Transaction id not found.")
        }
        state.withLock { $0.consumption[id] = body }
        return HTTPResponse(status: 202)
    }

    func extend(_ request: HTTPRequest) -> HTTPResponse {
        let id = request.pathParameters["id"] ?? ""
        guard Self.isNumeric(id) else { return Self.appleError(400, 4_000_008, "Invalid original transaction id.") }
        guard let body = try? JSONValue.parse(request.body), let days = body["extendByDays"]?.int64Value, (1...90).contains(days) else {
            return Self.appleError(400, 4_000_009, "Invalid extend by days value.")
        }
        guard let requestID = body["requestIdentifier"]?.stringValue, !requestID.isEmpty else {
            return Self.appleError(400, 4_000_011, "Invalid request identifier.")
        }
        return state.withLock { s -> HTTPResponse in
            guard let latest = s.transactions.last(where: { $0.originalTransactionID == id }) else {
                return Self.appleError(404, 4_040_005, "Original transaction id not found.")
            }
            // Apple extends once per request identifier: the same one answers the same.
            if let earlier = s.extensions[requestID] { return .json(earlier) }
            let payload = AppStoreVerifierPayload.payload(of: latest.jws)
            let expires = payload?["expiresDate"]?.int64Value ?? 0
            let answer: JSONValue = [
                "success": true, "effectiveDate": .integer(expires + days * 86_400_000),
                "originalTransactionId": .string(id), "webOrderLineItemId": payload?["webOrderLineItemId"] ?? .null,
            ]
            s.extensions[requestID] = answer
            return .json(answer)
        }
    }

    static func isNumeric(_ id: String) -> Bool { !id.isEmpty && id.allSatisfy(\.isNumber) }
}
