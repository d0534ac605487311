import Foundation
import StripeAPI
import StripeStandIn
import Synchronization

/// A stand-in for Stripe on loopback and clients of it, whose retry sleeps are recorded,
/// not slept.
final class StripeFixture: Sendable {
    let standIn: StripeStandIn
    /// The recorded sleeps, in a class of their own so that the policy's closure can hold them.
    final class Sleeps: Sendable {
        let seconds = Mutex<[Double]>([])
    }
    let sleeps = Sleeps()
    private let clients = Mutex<[StripeAPIClient]>([])

    init() throws {
        standIn = try StripeStandIn()
    }

    var secretKey: String { standIn.account.secretKey }

    /// A client of the stand-in with the account's key (or `key`). `random` is the
    /// jitter's source (0.5 by default); the backoff starts at one second, recorded.
    func client(key: String? = nil, maximumAttempts: Int = 4, random: @escaping @Sendable () -> Double = { 0.5 }) throws -> StripeAPIClient {
        let retry = StripeAPIRetryPolicy(maximumAttempts: maximumAttempts, baseDelay: 1, maximumDelay: 8,
                                         sleep: { [sleeps] seconds in sleeps.seconds.withLock { $0.append(seconds) } }, random: random)
        let configuration = try StripeAPIConfiguration(appID: "screenrig", secretKey: key ?? secretKey, baseURL: standIn.baseURL,
                                                       timeout: 10, retry: retry)
        return client(configuration)
    }

    func client(_ configuration: StripeAPIConfiguration) -> StripeAPIClient {
        let client = StripeAPIClient(configuration: configuration)
        clients.withLock { $0.append(client) }
        return client
    }

    var recordedSleeps: [Double] { sleeps.seconds.withLock { $0 } }

    /// Records `count` events of `type`, one a second from `start`, and returns their ids
    /// in the order recorded (oldest first).
    @discardableResult
    func recordEvents(_ count: Int, type: String = "invoice.paid", start: Int64 = 1_767_225_600) -> [String] {
        (0..<count).map { i in
            standIn.record(StripeEventDraft(type: type, object: ["id": .string(StripeID.make("in_")), "object": "invoice"],
                                            created: start + Int64(i))).id
        }
    }

    deinit {
        for client in clients.withLock({ $0 }) { client.close() }
        standIn.stop()
    }
}
