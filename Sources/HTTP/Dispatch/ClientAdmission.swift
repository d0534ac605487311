import Synchronization

/// Bounds the requests one client has in the server at once (running, queued or waiting
/// for a projection), so that no client can take every worker or fill the queue.
///
/// A client is what its verified credential names (`HTTPServerConfiguration.admissionClient`)
/// or, without one, its address: a credential that nobody verified names nobody, so a
/// client that invents one per request still shares its address's limit.
final class ClientAdmission: Sendable {
    let limit: Int
    private let counts = Mutex<[String: Int]>([:])

    init(limit: Int) { self.limit = limit }

    /// Counts one more request of `client`; `false` (and nothing counted) at the limit.
    func enter(_ client: String) -> Bool {
        counts.withLock { counts in
            let current = counts[client, default: 0]
            guard current < limit else { return false }
            counts[client] = current + 1
            return true
        }
    }

    func leave(_ client: String) {
        counts.withLock { counts in
            guard let current = counts[client] else { return }
            counts[client] = current > 1 ? current - 1 : nil
        }
    }

    /// Requests `client` has in the server now.
    func count(_ client: String) -> Int { counts.withLock { $0[client, default: 0] } }
}
