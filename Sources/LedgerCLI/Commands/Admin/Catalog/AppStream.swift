import EventStore
import LedgerDomain

/// The stream `app-<id>` that holds an app's configuration: read whole before a catalog
/// command judges a request, and appended to at the version that was read.
enum AppStream {
    static func name(_ app: String) -> String { "app-" + app }

    /// The app's history, or a refusal when it does not exist.
    static func load(_ app: String, session: AdminSession) throws -> AppHistory {
        let stream = name(app)
        var events: [RecordedEvent] = []
        // A read returns at most a page of events; the next one starts after the last.
        while true {
            let page = try session.services.store.readStream(stream, from: (events.last?.streamVersion ?? 0) + 1)
            guard !page.isEmpty else { break }
            events += page
        }
        guard let history = try AppHistory(appID: app, events: events) else {
            throw AdminError(.notFound, "app \(app) does not exist")
        }
        return history
    }

    /// Appends to the app's stream, expecting it exactly as `history` read it: a change
    /// made meanwhile could invalidate the checks, so it is a conflict and nothing is written.
    static func append(_ events: [EventToAppend], after history: AppHistory, session: AdminSession) throws -> [AppendedRecord] {
        try session.append(events, expecting: [name(history.appID): .exactly(history.version)])
    }
}
