import EventStore
import LedgerJSON

/// The demo data `ledger dev` seeds, once (every append carries an idempotency key, so a
/// second start appends nothing), and the keys and ids it returns for `.ledger/demo.json`.
enum DemoData {
    static func seed(store: EventStore) throws -> [String: JSONValue] {
        let actor = Actor(.system, "ledger-dev")
        _ = try store.append(AppendRequest(
            EventToAppend(stream: "system-ledger", type: "ledger.initialised",
                          data: ["note": "demo data of the embedded default"],
                          metadata: EventMetadata(actor: actor, reason: "ledger dev seeds the demo data")),
            idempotencyKey: "demo:ledger-initialised"))
        return ["keys": [:], "ids": [:]]
    }
}
