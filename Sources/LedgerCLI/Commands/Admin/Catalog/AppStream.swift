import EventStore
import LedgerDomain

/// The stream `app-<id>` that holds an app's configuration: read whole before a catalog
/// command judges a request (`AppState`), and appended to at the version that was read.
enum AppStream {
    /// The app as its stream tells it, or a refusal when it does not exist.
    static func load(_ app: String, session: AdminSession) throws -> AppState {
        let stream = CatalogDecider.stream(app)
        var records: [AppState.Record] = []
        // A read returns at most a page of events; the next one starts after the last.
        while true {
            let page = try session.services.store.readStream(stream, from: (records.last?.streamVersion ?? 0) + 1)
            guard !page.isEmpty else { break }
            records += try page.map { AppState.Record(type: $0.type, data: try $0.data(), streamVersion: $0.streamVersion) }
        }
        guard let state = try AppState(appID: app, stream: records) else {
            throw AdminError(.notFound, "app \(app) does not exist")
        }
        return state
    }
}
