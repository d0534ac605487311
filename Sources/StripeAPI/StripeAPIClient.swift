import Foundation
import LedgerJSON
import Outbound

/// A client of Stripe's API for one app's account, over libcurl (`Outbound`): the secret
/// key as a bearer token, the API version pinned (`apiVersion`, sent as `Stripe-Version`
/// so that objects keep the shapes the ledger reads whatever the account's default), the
/// retries of `StripeAPIRetryPolicy`, and Stripe's errors read into `StripeAPIError`.
///
/// Calls block the calling thread (a job's or a command's, never a server's request thread)
/// until the answer or the last retry. Safe to share between threads.
///
/// ```swift
/// let client = StripeAPIClient(configuration: configuration)
/// defer { client.close() }
/// let recent = try client.events(since: Int64(Date().timeIntervalSince1970) - 86_400)
/// ```
public final class StripeAPIClient: Sendable {
    /// The API version every request asks for (`Stripe-Version`): the shapes of the objects
    /// the ledger reads (checkout sessions, subscriptions, invoices, payment intents,
    /// charges, disputes) are those of this version, whatever the account's default is.
    public static let apiVersion = "2024-06-20"

    public let configuration: StripeAPIConfiguration
    private let outbound: OutboundClient
    private let ownsOutbound: Bool

    /// - Parameter outbound: a client to share; by default one of its own with the
    ///   configuration's policy, closed by `close()`.
    public init(configuration: StripeAPIConfiguration, outbound: OutboundClient? = nil) {
        self.configuration = configuration
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
        case answered(JSONValue)
        case retry(StripeAPIError)
        case failed(StripeAPIError)
    }

    /// `GET path?query`, the answer's JSON object, retrying by the configuration's policy.
    func get(_ path: String, query: [(String, String)] = []) throws(StripeAPIError) -> JSONValue {
        let url = configuration.baseURL + path + Self.queryText(query)
        let policy = configuration.retry
        var attempt = 0
        while true {
            attempt += 1
            switch once("GET", url, attempt: attempt) {
            case .answered(let json):
                return json
            case .failed(let error):
                throw error
            case .retry(let error):
                guard attempt < policy.maximumAttempts else { throw error }
                policy.sleep(policy.backoff(afterAttempt: attempt))
            }
        }
    }

    private func once(_ method: String, _ url: String, attempt: Int) -> Outcome {
        var request = OutboundRequest(method: method, url: url, headers: [
            ("Authorization", "Bearer \(configuration.secretKey.text)"),
            ("Stripe-Version", Self.apiVersion),
            ("Accept", "application/json"),
        ], timeout: configuration.timeout)
        request.keepsAnswer = true
        request.keptAnswerHeaders = [Self.shouldRetryHeader, Self.requestIDHeader]
        let response: OutboundResponse
        do {
            response = try outbound.send(request)
        } catch {
            switch error.code {
            case .refusedURL, .refusedAddress:
                return .failed(StripeAPIError(.refused, error.message, attempts: attempt))
            case .timedOut, .connectionFailed:
                return .retry(StripeAPIError(.unavailable, "no answer from Stripe: \(error.message)", attempts: attempt))
            case .tlsFailed, .answerTooLarge, .failed, .closed:
                return .failed(StripeAPIError(.unavailable, "no usable answer from Stripe: \(error.message)", attempts: attempt))
            }
        }
        if response.status == 200 {
            guard let json = try? JSONValue.parse(response.body ?? []), json.objectValue != nil else {
                return .failed(StripeAPIError(.answerMalformed, "the answer to \(method) \(Self.pathOf(url)) is not a JSON object",
                                              status: 200, requestID: response.keptHeaders[Self.requestIDHeader], attempts: attempt))
            }
            return .answered(json)
        }
        let failure = Self.answerError(response, attempts: attempt)
        switch response.keptHeaders[Self.shouldRetryHeader]?.lowercased() {
        case "false": return .failed(failure)
        case "true": return .retry(failure)
        default: break
        }
        let transient = response.status == 409 || response.status == 429 || response.status >= 500
        return transient ? .retry(failure) : .failed(failure)
    }

    /// Stripe's advice on an answer: `true` retry it, `false` do not.
    static let shouldRetryHeader = "Stripe-Should-Retry"
    static let requestIDHeader = "Request-Id"

    /// The error a failed answer stands for: the status's code, Stripe's `error` body's
    /// type, code and message when it has one (the message cleared of anything shaped
    /// like a key).
    static func answerError(_ response: OutboundResponse, attempts: Int) -> StripeAPIError {
        let status = response.status
        var type: String?
        var stripeCode: String?
        var stripeMessage: String?
        if let body = response.body, !body.isEmpty, let json = try? JSONValue.parse(body), let error = json["error"] {
            type = error["type"]?.stringValue
            stripeCode = error["code"]?.stringValue
            stripeMessage = error["message"]?.stringValue
        }
        let code: StripeAPIError.Code = switch status {
        case 401: .authenticationFailed
        case 403: .permissionDenied
        case 429: .rateLimited
        case 400, 404: .invalidRequest
        case 500...: .unavailable
        default: .unexpectedStatus
        }
        let fallback = switch code {
        case .authenticationFailed: "Stripe refused the secret key"
        case .permissionDenied: "the key may not do this"
        case .rateLimited: "Stripe answered: too many requests"
        case .unavailable: "Stripe could not answer"
        default: "Stripe answered HTTP \(status)"
        }
        let message = StripeSecretKey.redacting(stripeMessage ?? fallback)
        return StripeAPIError(code, message, status: status, stripeType: type, stripeCode: stripeCode,
                              requestID: response.keptHeaders[requestIDHeader], attempts: attempts)
    }

    /// `?a=1&b=2`, each name and value percent-encoded but for RFC 3986's unreserved
    /// characters (`created[gte]` goes as `created%5Bgte%5D`, which Stripe reads the same).
    static func queryText(_ items: [(String, String)]) -> String {
        guard !items.isEmpty else { return "" }
        return "?" + items.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static func pathOf(_ url: String) -> String {
        URLComponents(string: url)?.path ?? url
    }
}
