import Projections

/// Why the log's transparency surface cannot answer a proof now: the front ends map each
/// case to their own shape (a 503 to retry, a 400).
public enum ProofRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The Merkle tree has not reached the size asked, which the log has: retry shortly.
    case treeBehind(String)
    /// A size past the log's head, a position past the size, or sizes out of order.
    case invalid(String)

    public var description: String {
        switch self {
        case .treeBehind(let detail), .invalid(let detail): return detail
        }
    }
}

extension ProofRefusal {
    /// `body`'s proof, or the refusal the read model's own means for a client: a tree
    /// behind the log is to retry; a size past the log, or a position past the size, is
    /// the request's mistake.
    static func reading<T>(_ reads: QueryReads, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let refusal as MerkleReadModel.Refusal {
            switch refusal {
            case .notCreated:
                throw ProofRefusal.treeBehind(refusal.description)
            case .beyondTree(let size, _):
                let head = try reads.log.headPosition()
                guard size <= head else { throw ProofRefusal.invalid("the log holds \(head) events, not \(size)") }
                throw ProofRefusal.treeBehind(refusal.description)
            case .invalid(let what):
                throw ProofRefusal.invalid(what)
            }
        }
    }
}
