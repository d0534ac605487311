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
        return .object(logins)
    }
}
