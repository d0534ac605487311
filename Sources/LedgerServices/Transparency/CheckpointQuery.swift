import LedgerDomain
import ProjectionEngine
import Projections

/// A signed checkpoint of the log: the latest, or the one recorded at a position
/// (`GET /v1/log/checkpoints/{position}`, docs/audit.md).
public struct CheckpointQuery: LedgerQuery {
    /// nil: the latest.
    public var position: Int64?
    /// Whether the service makes checkpoints public (LEDGER_PUBLIC_CHECKPOINTS).
    public var isPublic: Bool

    public init(position: Int64?, isPublic: Bool) {
        self.position = position
        self.isPublic = isPublic
    }

    public var projections: [any Projection] { [MerkleProjection()] }
    public var subject: QuerySubject { .checkpoints(public: isPublic) }
    /// The latest on the primary; one at a position on a replica that has passed it.
    public var replicaFloor: Int64? { position }

    public func read(_ reads: QueryReads) throws -> TransparencyBodies.CheckpointBody? {
        let model = MerkleReadModel(connections: reads.connections)
        return try (position.map { try model.checkpoint(at: $0) } ?? model.latestCheckpoint()).map(TransparencyBodies.CheckpointBody.init)
    }
}
