import EventStore
import LedgerDomain
import ProjectionEngine

/// The operator's way out of a poison event: the projection that stopped on it skips it
/// from then on, and so does every replay (`ProjectionDecider.setAside`).
public struct EventSetAsideAct: LedgerAct {
    public var projection: any Projection
    public var position: Int64

    public init(projection: any Projection, position: Int64) {
        self.projection = projection
        self.position = position
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        let state = try reads.connections.read { conn -> ProjectionDecider.State? in
            guard let checkpoint = try ProjectionSchema.progress(projection.schema, on: conn) else { return nil }
            let type = try checkpoint.failedPosition.flatMap { try LogReader(conn).event(at: $0)?.type }
            return ProjectionDecider.State(position: checkpoint.position, failedPosition: checkpoint.failedPosition,
                                           error: checkpoint.error, failedEventType: type)
        }
        return try ProjectionDecider.setAside(projection: projection.name, position: position, state: state)
    }
}
