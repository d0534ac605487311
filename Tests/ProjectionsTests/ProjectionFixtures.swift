import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import Postgres
import ProjectionEngine
import Synchronization
import TestSupport

let testActor = Actor(.system, "tests")

func event(_ stream: String, _ type: String = "test.happened", _ data: JSONValue = ["n": 1]) -> EventToAppend {
    EventToAppend(stream: stream, type: type, data: data, metadata: EventMetadata(actor: testActor))
}

/// Waits until every projection's checkpoint has reached the log's head.
func waitForProjections(_ projections: [any Projection], url: String, timeout: Double = 30) throws -> Bool {
    let connection = try PostgresConnection(conninfo: url)
    return try Poll.until(timeout: timeout) {
        let head = try LogReader(connection).headPosition()
        for p in projections {
            guard let c = try ProjectionSchema.progress(p.schema, on: connection) else { return false }
            if c.position < head && c.failedPosition == nil { return false }
        }
        return true
    }
}

/// Runs a projector over `projections` until each has reached the log's head, then stops it.
func projectToHead(_ projections: [any Projection], db: TestDatabase, batchSize: Int) throws -> Bool {
    let projector = ProjectorThread(url: db.projectorURL, projections: projections, batchSize: batchSize, pollInterval: 0.2)
    defer { projector.stop() }
    return try waitForProjections(projections, url: db.writerURL)
}

func checksums(_ projection: any Projection, on connection: PostgresConnection) throws -> [String] {
    try projection.tables.map { try ProjectionSchema.checksum(schema: projection.schema, table: $0, on: connection) }
}

/// The catalogue's totals must equal the log's: every event counted exactly once.
func catalogueTotals(on connection: PostgresConnection) throws -> (types: Int64, streams: Int64, head: Int64) {
    let types = try connection.query("SELECT coalesce(sum(events), 0)::bigint FROM proj_catalogue.event_types")[0].requireInt64(0)
    let streams = try connection.query("SELECT coalesce(sum(events), 0)::bigint FROM proj_catalogue.streams")[0].requireInt64(0)
    return (types, streams, try LogReader(connection).headPosition())
}

/// A projection that refuses events of type `poison`.
struct PoisonProjection: Projection {
    let name = "poison_test"
    let version = 1
    let tables = ["seen"]
    var tablesSQL: [String] { ["CREATE TABLE seen (position bigint PRIMARY KEY, type text NOT NULL)"] }

    func apply(_ events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
        for event in events {
            try folding(event) {
                if event.type == "poison" { throw ProjectionError("cannot apply a poison event") }
                try context.execute("INSERT INTO seen (position, type) VALUES ($1, $2)", [event.position, event.type])
            }
        }
    }
}

import Dispatch
