import AppStore
import Foundation
import LedgerJSON
import Outbound

/// A client of Apple's App Store Server API for one app: every endpoint the ledger uses,
/// each with its paging as Apple documents it, over libcurl (`Outbound`) with the JWT of
/// `AppStoreServerAPITokenIssuer`, the retries of `AppStoreServerAPIRetryPolicy`, and every
/// signed value of every answer verified (`AppStoreVerifier`, the app's policy, environment
/// and bundle id) before it is returned.
///
/// Calls block the calling thread (a job's or a command's, never a server's request thread)
/// until the answer or the last retry. Safe to share between threads.
///
/// ```swift
/// let client = AppStoreServerAPIClient(configuration: configuration)
/// defer { client.close() }
/// let history = try client.notificationHistory(AppStoreNotificationHistoryQuery(start: since, end: now))
/// ```
public final class AppStoreServerAPIClient: Sendable {
    public let configuration: AppStoreServerAPIConfiguration
    public let tokens: AppStoreServerAPITokenIssuer
    let verifier: AppStoreVerifier
    let clock: @Sendable () -> Date
    private let outbound: OutboundClient
    private let ownsOutbound: Bool

    /// - Parameters:
    ///   - clock: now, for the token and date checks (the system clock by default).
    ///   - outbound: a client to share; by default one of its own with the configuration's
    ///     policy, closed by `close()`.
    public init(configuration: AppStoreServerAPIConfiguration, clock: @escaping @Sendable () -> Date = { Date() },
                outbound: OutboundClient? = nil) {
        self.configuration = configuration
        self.clock = clock
        tokens = AppStoreServerAPITokenIssuer(credentials: configuration.credentials, clock: clock)
        verifier = AppStoreVerifier(policy: configuration.verificationPolicy, bundleID: configuration.credentials.bundleID)
        self.outbound = outbound ?? OutboundClient(policy: configuration.outboundPolicy)
        ownsOutbound = outbound == nil
    }

    /// Stops the client's own outbound thread (not a shared one).
    public func close() {
        if ownsOutbound { outbound.close() }
    }

    // MARK: - Requests

    /// What one attempt came to.
    private enum Outcome {
        case answered(JSONValue?)
        case retry(after: Double, AppStoreServerAPIError)
        case failed(AppStoreServerAPIError)
    }

    /// Sends `method path?query` with `body` (JSON) and returns the answer's JSON (nil when
    /// it has no body, as a 202 has none), retrying by the configuration's policy.
    func call(_ method: String, _ path: String, query: [(String, String)] = [], body: JSONValue? = nil,
              accepting statuses: Set<Int> = [200]) throws(AppStoreServerAPIError) -> JSONValue? {
        let url = configuration.environment.baseURL + path + Self.queryText(query)
        let policy = configuration.retry
        var attempt = 0
        while true {
            attempt += 1
            switch once(method, url, body: body, accepting: statuses, attempt: attempt) {
            case .answered(let json):
                return json
            case .failed(let error):
                throw error
            case .retry(let delay, let error):
                guard attempt < policy.maximumAttempts else { throw error }
                policy.sleep(delay)
            }
        }
    }

    private func once(_ method: String, _ url: String, body: JSONValue?, accepting statuses: Set<Int>, attempt: Int) -> Outcome {
        let token = tokens.token()
        var headers: [(name: String, value: String)] = [("Authorization", "Bearer \(token)"), ("Accept", "application/json")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        var request = OutboundRequest(method: method, url: url, headers: headers, body: body?.compactBytes() ?? [],
                                      timeout: configuration.timeout)
        request.keepsAnswer = true
        let response: OutboundResponse
        do {
            response = try outbound.send(request)
        } catch {
            let failure = Self.transportError(error, attempts: attempt)
            let transient = error.code == .timedOut || error.code == .connectionFailed
            return transient ? .retry(after: configuration.retry.backoff(afterAttempt: attempt), failure) : .failed(failure)
        }
        if statuses.contains(response.status) {
            let bytes = response.body ?? []
            guard !bytes.isEmpty else { return .answered(nil) }
            do {
                return .answered(try JSONValue.parse(bytes))
            } catch {
                return .failed(AppStoreServerAPIError(.malformedAnswer, "the answer is not JSON: \(error)", status: response.status,
                                                      attempts: attempt))
            }
        }
        let failure = Self.answerError(response, attempts: attempt, now: clock())
        if response.status == 401 { tokens.invalidate(token) }
        guard response.status == 429 || response.status >= 500 else { return .failed(failure) }
        if let asked = failure.retryAfter {
            // Waiting longer than the policy allows would hold a job's thread for Apple's
            // whole penalty: the caller gets the 429 and Apple's delay instead.
            guard asked <= configuration.retry.maximumRetryAfter else { return .failed(failure) }
            return .retry(after: asked, failure)
        }
        return .retry(after: configuration.retry.backoff(afterAttempt: attempt), failure)
    }

    /// `?a=1&b=2`, each name and value percent-encoded but for RFC 3986's unreserved
    /// characters (a revision or pagination token may hold `+`, `/` and `=`).
    static func queryText(_ items: [(String, String)]) -> String {
        guard !items.isEmpty else { return "" }
        return "?" + items.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    /// One path segment (a transaction id, an order id, a token), percent-encoded.
    static func segment(_ text: String) -> String { escape(text) }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    static func transportError(_ error: OutboundError, attempts: Int) -> AppStoreServerAPIError {
        let code: AppStoreServerAPIError.Code = switch error.code {
        case .refusedURL, .refusedAddress: .refused
        case .timedOut: .timedOut
        case .connectionFailed: .connectionFailed
        case .tlsFailed: .tlsFailed
        case .answerTooLarge, .failed, .closed: .transportFailed
        }
        return AppStoreServerAPIError(code, error.message, attempts: attempts)
    }

    /// The error an answer that is not a success stands for: Apple's body when it has one
    /// (`errorCode`, `errorMessage`), else the status's meaning.
    static func answerError(_ response: OutboundResponse, attempts: Int, now: Date) -> AppStoreServerAPIError {
        let status = response.status
        let retryAfter = response.retryAfter.flatMap { AppStoreServerAPIRetryPolicy.retryAfterSeconds($0, now: now) }
        var appleCode: Int64?
        var appleMessage: String?
        if let body = response.body, !body.isEmpty, let json = try? JSONValue.parse(body) {
            appleCode = json["errorCode"]?.int64Value
            appleMessage = json["errorMessage"]?.stringValue
        }
        let code: AppStoreServerAPIError.Code
        if status == 401 {
            code = .tokenRefused
        } else if let appleCode {
            code = .apple(appleCode)
        } else if status == 429 {
            code = .rateLimited
        } else if status >= 500 {
            code = .serverError
        } else {
            code = .unexpectedStatus
        }
        let message = appleMessage ?? (status == 401 ? "Apple refused the token (HTTP 401)" : "HTTP \(status)")
        return AppStoreServerAPIError(code, message, status: status, appleErrorCode: appleCode, retryAfter: retryAfter, attempts: attempts)
    }
}
