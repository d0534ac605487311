import HTTP
import LedgerServices
import Postgres
import ProjectionEngine

extension ServiceContext {
    /// Runs the database work of a read endpoint not yet written as a query, `body`, where
    /// a query would run (`QueryRunner.onReplicaOrPrimary`): a replica whose copy of
    /// `projection` has passed the request's `min_position`, else the primary.
    func reading<T>(_ projection: any Projection, for request: HTTPRequest, _ body: (PostgresPool) throws -> T) throws -> T {
        try queries.onReplicaOrPrimary([projection.name], atLeast: (try? ReadYourWrites.minimumPosition(request)) ?? 0, body)
    }
}
