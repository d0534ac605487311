import AppStore
import EventStore
import Foundation
import LedgerJSON
import Observability
import Postgres

extension DevCommand {
    /// Plays `DemoStory` once the services answer. A story that fails leaves the demo
    /// thinner, not the service down: it is logged, with what to look at.
    static func playStory(document: [String: JSONValue], adminURL: String, baseURL: String, authorityDirectory: String,
                          environment: LedgerEnvironment, logger: Logger) {
        let store = EventStore(conninfo: adminURL)
        let connections = PostgresPool(conninfo: adminURL, maximumConnections: 2)
        defer {
            connections.closeIdle()
            store.close()
        }
        do {
            var keys: [String: String] = [:]
            for (name, value) in document["keys"]?.objectValue ?? [:] { keys[name] = value.stringValue }
            let signer = AppStoreTestSigner(authority: try AppStoreTestAuthority.loadOrCreate(in: authorityDirectory),
                                            bundleID: try environment.require(.appStoreBundleID))
            let story = DemoStory(store: store, connections: connections, baseURL: baseURL, keys: keys,
                                  catalogKey: document["catalog"]?["publishable_key"]?.stringValue ?? "", appStore: signer,
                                  planProducts: try environment.appStorePlanProducts(), now: Date())
            try story.play()
        } catch {
            logger.warning("the demo's story was not played in full; the service runs", ["error": .string("\(error)"),
                           "logs": .string("the API's and the projector's logs under LEDGER_DATA_DIR/logs")])
        }
    }
}
