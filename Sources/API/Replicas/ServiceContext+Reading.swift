import HTTP
import Postgres
import ProjectionEngine

extension ServiceContext {
    /// Runs the database work of a read endpoint, `body`, on a read replica in rotation
    /// whose copy of `projection` has passed the request's `min_position` (read-your-writes
    /// across the hop), else on the primary. A replica that fails the read is taken out of
    /// rotation and the read is done again on the primary: a read is safe to repeat.
    ///
    /// The same pool serves the whole request, key lookup included, so that a key issued
    /// at the position waited for is found wherever the read goes.
    func reading<T>(_ projection: any Projection, for request: HTTPRequest, _ body: (PostgresPool) throws -> T) throws -> T {
        if let replicas, let replica = replicas.pick(projection: projection.name, atLeast: ReadYourWrites.minimumPosition(request) ?? 0) {
            do {
                let value = try body(replica.pool)
                readCounter.increment(labels: ["target": replica.name])
                return value
            } catch let error as PostgresError where Self.isReplicaFailure(error) {
                replicas.markDown(replica.name, because: error)
                logger.warning("read replica failed a read; read again on the primary",
                               ["replica": .string(replica.name), "error": .string("\(error)")])
            }
        }
        readCounter.increment(labels: ["target": "primary"])
        return try body(pool)
    }

    /// A failure of the replica, not of the read: unreachable, gone mid-read, saturated, or
    /// a query cancelled by a conflict with recovery (WAL replay removed rows it needed).
    static func isReplicaFailure(_ error: PostgresError) -> Bool {
        switch error.code {
        case .connectionFailed, .connectionLost, .poolTimeout: return true
        default:
            return [PostgresError.SQLState.serializationFailure, PostgresError.SQLState.adminShutdown,
                    PostgresError.SQLState.queryCanceled, "40P01", "57P03"].contains(error.sqlState ?? "")
        }
    }
}
