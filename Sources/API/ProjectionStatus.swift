import EventStore
import Postgres
import ProjectionEngine

/// Where the projections stand against the log's head (readiness and metrics).
struct ProjectionStatus: Sendable {
    struct Item: Sendable, Codable {
        var name: String
        var position: Int64
        var lag: Int64
        var failedPosition: Int64?
        var error: String?
        var exists: Bool

        enum CodingKeys: String, CodingKey {
            case name, position, lag, error, exists
            case failedPosition = "failed_position"
        }
    }

    var head: Int64
    var items: [Item]

    static func read(_ projections: [any Projection], pool: PostgresPool) throws -> ProjectionStatus {
        try pool.read { connection in
            let head = try LogReader(connection).headPosition()
            let checkpoints = try ProjectionSchema.checkpoints(projections.map(\.schema), on: connection)
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
