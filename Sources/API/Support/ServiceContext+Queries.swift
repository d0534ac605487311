import Foundation
import HTTP
import LedgerServices

extension ServiceContext {
    /// The shared queries, on the service's pools, replicas, progress and clock.
    var queries: QueryRunner {
        QueryRunner(connections: connections, replicas: replicas, progress: progress, clock: now, logger: logger,
                    served: { [readCounter] in readCounter.increment(labels: ["target": $0]) })
    }

    /// The API's secret keys, on the primary.
    var keys: SecretKeys { SecretKeys(connections: connections, verified: verifiedKeys) }

    /// The one read skeleton of the HTTP surfaces: runs `query` for `reader` (already
    /// authenticated, once) at `target`, parks the request, holding no thread, while a
    /// projection the query reads is behind (503 `projection_behind` after five seconds
    /// from `since`), and renders the answer. A subject that does not exist, or that the
    /// reader may not read and whose existence is not revealed, is `notFound`'s problem; a
    /// refusal the subject shows openly is `forbidden`'s.
    func answer<Q: LedgerQuery>(_ query: Q, as reader: Reader, atLeast target: Int64?, since: Date,
                                notFound: @escaping @Sendable () -> any Error,
                                forbidden: @escaping @Sendable () -> any Error = {
                                    Problem(status: 403, code: "forbidden", detail: "this key may not read this")
                                },
                                render: @escaping @Sendable (Q.Answer) throws -> HTTPResponse) throws -> HTTPResponse {
        switch try queries.run(query, as: reader, atLeast: target) {
        case .answered(let answer):
            return try render(answer)
        case .notFound:
            throw notFound()
        case .forbidden:
            throw forbidden()
        case .beyondHead(let position, let head):
            throw ReadYourWrites.beyondHead(position, head: head)
        case .waiting(let projection, let position):
            throw ReadYourWrites.park(until: position, of: projection, since: since, context: self) {
                try self.answer(query, as: reader, atLeast: target, since: since, notFound: notFound, forbidden: forbidden, render: render)
            }
        }
    }
}
