import EventStore
import Foundation
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
    let store = EventStore(conninfo: db.serviceURL, faults: faults)
    defer { store.close() }
    return try body(store, db)
}

/// A small seeded generator, so that a failing generated case can be reproduced.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
