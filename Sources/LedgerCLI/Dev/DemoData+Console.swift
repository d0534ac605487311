import Crypto
import EventStore
import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres

extension DemoData {
    /// The demo's console operators, an auditor and an operator, for `.ledger/demo.json`.
    /// Their passwords derive from the data directory's persisted secret, so every start
    /// of `ledger dev` prints the same ones and appends nothing after the first.
    static func seedOperators(store: EventStore, url: String, secret: [UInt8], consoleURL: String?) throws -> JSONValue {
        let connections = PostgresPool(conninfo: url, maximumConnections: 1)
        let directory = OperatorDirectory(connections: connections)
        let metadata = EventMetadata(actor: Actor(.system, "ledger-dev"), reason: "ledger dev seeds the demo data")
        var logins: [String: JSONValue] = [:]
        for role in [OperatorRole.auditor, .operator] {
            let name = "demo-" + role.rawValue
            let password = Base64URL.encode(Array(HMAC.sha256(key: secret, data: Array("console password \(name)".utf8)).prefix(15)))
            if try directory.state(of: name) == nil {
                let credential = try directory.storeCredential(operator: name, password: password)
                let decision = try OperatorDecider.add(name: name, role: role, credential: credential, existing: nil)
                _ = try store.append(AppendRequest(decision, metadata: metadata))
            }
            logins[role.rawValue] = ["name": .string(name), "password": .string(password)]
        }
        if let consoleURL { logins["url"] = .string(consoleURL) }
        try seedCorrection(store: store)
        return .object(logins)
    }

    /// A correction of the demo payer's launch grant, by the demo operator, so that an
    /// auditor has one to find, open and export (docs/console.md).
    static func seedCorrection(store: EventStore) throws {
        let key = "demo:correction-acme-grant"
        guard try store.log.events(appendedUnder: key).isEmpty,
              let grant = try store.log.events(appendedUnder: "demo:credit-acme-grant").first,
              let id = JournalEntryID("je_\(grant.position)_0") else { return }
        let entry = JournalEntryRef(id: id, accounts: [Pool.payer("acme").description], pool: .payer("acme"), projectID: nil,
                                    amount: Millicredits(1_000_000), kind: "credit")
        let reason = "the launch grant was 750 credits, not 1,000 (ticket DEMO-17)"
        var request = AppendRequest(try MoneyDecider.correct(entry, id: id, amount: Millicredits(-250_000), reason: reason),
                                    metadata: EventMetadata(actor: Actor(.operator, "demo-operator"), reason: reason))
        request.idempotencyKey = key
        _ = try store.append(request)
    }
}
