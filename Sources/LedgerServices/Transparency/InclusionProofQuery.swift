import ProjectionEngine
import Projections

/// Proof that the event at a position is in the tree of a size (RFC 9162 §2.1.3), with
/// the event's canonical bytes (`GET /v1/log/proofs/inclusion`).
public struct InclusionProofQuery: LedgerQuery {
    public var position: Int64
    public var size: Int64
    /// The tree's upper nodes, which every proof shares (immutable once written).
    public var cache: MerkleNodeCache?

    public init(position: Int64, size: Int64, cache: MerkleNodeCache? = nil) {
        self.position = position
        self.size = size
        self.cache = cache
    }

    public var projections: [any Projection] { [MerkleProjection()] }
    public var subject: QuerySubject { .proofs }
    /// A replica whose tree has reached the size.
    public var replicaFloor: Int64? { size }

    public func read(_ reads: QueryReads) throws -> TransparencyBodies.InclusionBody? {
        try ProofRefusal.reading(reads) {
            TransparencyBodies.InclusionBody(try MerkleReadModel(connections: reads.connections, cache: cache).inclusionProof(position: position, size: size))
        }
    }
}
