import Foundation
import HTTP
import LedgerJSON
import Observability
import Synchronization

/// A stand-in for Stripe on loopback, for tests and `ledger dev`. Per account it holds a
/// secret API key (checked as a bearer token: 401 in Stripe's error shape otherwise) and
/// webhook endpoints with their secrets; it records events (`record`, with the scenarios of
/// `StripeScenario` to make realistic ones), lists them as List all events does
/// (`GET /v1/events`: newest first, `limit`, `starting_after`, `ending_before`,
/// `created[gte|gt|lte|lt]`, `type`, `types[]`, `has_more`) and retrieves one
/// (`GET /v1/events/{id}`), and delivers each to each endpoint of its account, signed as
/// Stripe signs (`Stripe-Signature: t=…,v1=…`, one `v1` per endpoint secret).
///
/// Stripe's faults on demand: a delivery mode per event or standing (`StripeDeliveryMode`:
/// drop, duplicate, delay until `flush()`, reorder), and the next requests answered 429 or
/// 5xx (`fail`). Webhooks go one at a time, each after the previous one's answer, through
/// libcurl (`Outbound`, loopback allowed); every answer's status is kept (`deliveries`).
public final class StripeStandIn: Sendable {
    /// The API version the stand-in writes its objects in (`api_version`).
    public static let apiVersion = "2024-06-20"

    /// One request the stand-in received, whatever it answered.
    public struct Request: Sendable, Equatable {
        public var method: String
        public var path: String
        /// The query as received, decoded, in order.
        public var query: [String]
        /// The `Stripe-Version` it asked for, if any.
        public var stripeVersion: String?
        public var status: Int
    }

    public let configuration: StripeStandInConfiguration
    /// What it holds and the webhooks' sender, apart from the stand-in so that a delivery
    /// in flight never holds the stand-in itself.
    let store: StripeStandInStore
    private let server: Mutex<HTTPServer?> = Mutex(nil)

    /// Starts the stand-in on `127.0.0.1`, on `port` (0: any free one).
    public init(configuration: StripeStandInConfiguration = StripeStandInConfiguration(), port: Int = 0) throws {
        self.configuration = configuration
        store = StripeStandInStore(clock: configuration.clock, deliveryTimeout: configuration.deliveryTimeout)
        var router = Router()
        routes(&router)
        developerRoutes(&router)
        let http = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: port, threads: 4), router: router,
                              logger: Logger(minimumLevel: .error))
        try http.start()
        server.withLock { $0 = http }
    }

    /// `http://127.0.0.1:<port>`: the client's base URL.
    public var baseURL: String { "http://127.0.0.1:\(server.withLock { $0?.port ?? 0 })" }

    /// Stops serving; what is being delivered finishes, what waits is not sent.
    public func stop() {
        let http = server.withLock { s -> HTTPServer? in
            defer { s = nil }
            return s
        }
        http?.shutdown(gracePeriod: 1)
        store.close()
    }

    deinit { stop() }

    // MARK: - Accounts and endpoints

    /// The first account: the one every method acts on unless told another.
    public var account: StripeStandInAccount { configuration.accounts[0] }

    func accountID(_ id: String?) -> String {
        let id = id ?? account.id
        precondition(configuration.accounts.contains { $0.id == id }, "the stand-in plays no account \(id)")
        return id
    }

    /// Adds a webhook endpoint to `account` (the first by default) that will receive every
    /// event recorded from now on, signed with `secret` (a fresh `whsec_…` by default).
    @discardableResult
    public func addEndpoint(url: String, secret: String? = nil, account: String? = nil) -> StripeStandInEndpoint {
        let endpoint = StripeStandInEndpoint(id: StripeID.make("we_"), account: accountID(account), url: url,
                                             secrets: [secret ?? StripeID.make("whsec_", length: 32)])
        store.state.withLock { $0.endpoints.append(endpoint) }
        return endpoint
    }

    /// Rolls the endpoint's secret as Stripe's dashboard does: a new secret is added and
    /// the old ones are kept (every delivery carries a `v1` for each) until `expireOldSecrets`.
    /// Returns the new secret.
    @discardableResult
    public func rollSecret(endpoint id: String, to secret: String? = nil) -> String {
        let new = secret ?? StripeID.make("whsec_", length: 32)
        store.state.withLock { s in
            guard let index = s.endpoints.firstIndex(where: { $0.id == id }) else { preconditionFailure("no endpoint \(id)") }
            s.endpoints[index].secrets.append(new)
        }
        return new
    }

    /// Ends a roll: only the newest secret signs from now on.
    public func expireOldSecrets(endpoint id: String) {
        store.state.withLock { s in
            guard let index = s.endpoints.firstIndex(where: { $0.id == id }) else { preconditionFailure("no endpoint \(id)") }
            s.endpoints[index].secrets = Array(s.endpoints[index].secrets.suffix(1))
        }
    }

    /// Every endpoint, of every account, as it is now.
    public var endpoints: [StripeStandInEndpoint] { store.state.withLock { $0.endpoints } }

    // MARK: - Faults and what was seen

    /// The next `count` requests to the API (after their key is checked) are answered
    /// `status` (429, 500, 503, …) in Stripe's error shape, with `Stripe-Should-Retry` when
    /// `shouldRetry` is given.
    public func fail(next count: Int, status: Int, shouldRetry: Bool? = nil) {
        let body = Self.errorBody(status: status)
        store.state.withLock { $0.faults += Array(repeating: .init(status: status, shouldRetry: shouldRetry, body: body), count: count) }
    }

    /// Every API request received, in order.
    public var requests: [Request] { store.state.withLock { $0.requests } }
    /// Every event recorded, in the order recorded.
    public var events: [StripeStandInEvent] { store.state.withLock { $0.events } }
}
