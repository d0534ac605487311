import ProjectionEngine
import Projections

/// Proof that the tree of one size is the beginning of the tree of a later size (RFC 9162
/// §2.1.4) (`GET /v1/log/proofs/consistency`).
public struct ConsistencyProofQuery: LedgerQuery {
    public var from: Int64
    public var to: Int64
    /// The tree's upper nodes, which every proof shares (immutable once written).
    public var cache: MerkleNodeCache?

    public init(from: Int64, to: Int64, cache: MerkleNodeCache? = nil) {
        self.from = from
        self.to = to
        self.cache = cache
    }

    public var projections: [any Projection] { [MerkleProjection()] }
    public var subject: QuerySubject { .proofs }
    /// A replica whose tree has reached the later size.
    public var replicaFloor: Int64? { to }

    public func read(_ reads: QueryReads) throws -> TransparencyBodies.ConsistencyBody? {
        try ProofRefusal.reading(reads) {
            TransparencyBodies.ConsistencyBody(try MerkleReadModel(connections: reads.connections, cache: cache).consistencyProof(from: from, to: to))
        }
    }
}
