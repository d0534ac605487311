import HTTP
import LedgerServices
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
        if let replicas, let replica = replicas.pick(projection: projection.name, atLeast: (try? ReadYourWrites.minimumPosition(request)) ?? 0) {
            do {
                let value = try body(replica.pool)
                readCounter.increment(labels: ["target": replica.name])
                return value
            } catch let error as PostgresError where QueryRunner.isReplicaFailure(error) {
                replicas.markDown(replica.name, because: error)
                logger.warning("read replica failed a read; read again on the primary",
                               ["replica": .string(replica.name), "error": .string("\(error)")])
            }
        }
        readCounter.increment(labels: ["target": "primary"])
        return try body(pool)
    }
}
