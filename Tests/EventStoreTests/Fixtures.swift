import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import TestSupport

let testActor = Actor(.system, "tests")

func event(_ stream: String, _ type: String = "test.happened", data: JSONValue = ["n": 1],
           key: String? = nil, id: UUID? = nil) -> EventToAppend {
    EventToAppend(stream: stream, type: type, data: data, metadata: EventMetadata(actor: testActor), eventID: id, idempotencyKey: key)
}

/// A migrated database and a store on it (as the service role), torn down afterwards.
func withStore<T>(faults: AppendFaults = .none, _ body: (EventStore, TestDatabase) throws -> T) throws -> T {
    let db = try TestDatabase.create()
    defer { db.drop() }
    let store = EventStore(conninfo: db.writerURL, faults: faults)
    defer { store.close() }
    return try body(store, db)
}
