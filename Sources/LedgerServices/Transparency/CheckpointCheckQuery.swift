import Crypto
import ProjectionEngine
import Projections

/// A signed checkpoint checked as an auditor checks it (`ledger audit checkpoint`): its
/// Ed25519 signature over its text, and its root against the Merkle tree at its size,
/// both read in the query so that every surface judges a checkpoint the same way.
public struct CheckpointCheckQuery: LedgerQuery {
    /// nil: the latest.
    public var position: Int64?

    public init(position: Int64?) { self.position = position }

    /// A checkpoint and what checking it found.
    public struct Checked: Sendable {
        public var body: TransparencyBodies.CheckpointBody
        /// The checkpoint's signed text, line by line.
        public var text: String
        public var position: Int64
        public var keyID: String
        public var signatureValid: Bool
        public var rootMatchesTree: Bool
    }

    public var projections: [any Projection] { [MerkleProjection()] }
    public var subject: QuerySubject { .proofs }
    /// On the primary: a checkpoint is checked against the tree of record.
    public var replicaFloor: Int64? { nil }

    public func read(_ reads: QueryReads) throws -> Checked? {
        let model = MerkleReadModel(connections: reads.connections)
        guard let found = try position.map(model.checkpoint(at:)) ?? model.latestCheckpoint() else { return nil }
        let signed = Ed25519.verify(publicKey: found.publicKey, message: Array(found.checkpoint.text.utf8), signature: found.signature)
        let root = try ProofRefusal.reading(reads) { try model.root(size: found.checkpoint.size) }
        return Checked(body: TransparencyBodies.CheckpointBody(found), text: found.checkpoint.text, position: found.position,
                       keyID: found.keyID, signatureValid: signed, rootMatchesTree: root == found.checkpoint.root)
    }
}
