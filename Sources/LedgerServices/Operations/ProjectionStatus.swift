import EventStore
import Postgres
import ProjectionEngine

/// Where the projections stand against the log's head (readiness and metrics).
public struct ProjectionStatus: Sendable {
    public struct Item: Sendable, Codable {
        public var name: String
        public var position: Int64
        public var lag: Int64
        public var failedPosition: Int64?
        public var error: String?
        public var exists: Bool

        enum CodingKeys: String, CodingKey {
            case name, position, lag, error, exists
            case failedPosition = "failed_position"
        }
    }

    public var head: Int64
    public var items: [Item]

    public static func read(_ projections: [any Projection], connections: PostgresPool) throws -> ProjectionStatus {
        try connections.read { connection in
            let head = try LogReader(connection).headPosition()
            let checkpoints = try ProjectionSchema.progress(of: projections.map(\.schema), on: connection)
            var items: [Item] = []
            for projection in projections {
                if let c = checkpoints[projection.schema] {
                    items.append(Item(name: projection.name, position: c.position, lag: head - c.position,
                                      failedPosition: c.failedPosition, error: c.error, exists: true))
                } else {
                    items.append(Item(name: projection.name, position: 0, lag: head, failedPosition: nil, error: nil, exists: false))
                }
            }
            return ProjectionStatus(head: head, items: items)
        }
    }
}
