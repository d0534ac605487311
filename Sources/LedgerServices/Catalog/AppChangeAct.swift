import LedgerDomain

/// A catalog act on an existing app: the app's stream is read whole (`AppState`), a
/// `CatalogDecider` rule decides, and the decision is appended at the version read, so a
/// change made meanwhile is a conflict and nothing is written.
public struct AppChangeAct: LedgerAct {
    public var app: String
    /// The rule, on the app as its stream tells it and the time now.
    public var change: @Sendable (AppState, Timestamp) throws -> Decision
    /// What a key of the decision recorded before with other content means (a web
    /// purchase recorded with other details); nil for a plain idempotency conflict.
    public var keyTakenRefusal: Refusal?

    public init(app: String, keyTakenRefusal: Refusal? = nil, _ change: @escaping @Sendable (AppState, Timestamp) throws -> Decision) {
        self.app = app
        self.keyTakenRefusal = keyTakenRefusal
        self.change = change
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        try change(try reads.app(app), reads.now())
    }

    public func keyTaken(_ key: String?, by decision: Decision, _ reads: ActReads) throws -> RaceVerdict? {
        keyTakenRefusal.map(RaceVerdict.refused)
    }
}

extension ActReads {
    /// The app as its stream tells it, or a refusal when it does not exist.
    public func app(_ app: String) throws -> AppState {
        let name = CatalogDecider.stream(app)
        var records: [AppState.Record] = []
        // A read returns at most a page of events; the next one starts after the last.
        while true {
            let page = try stream(name, from: (records.last?.streamVersion ?? 0) + 1)
            guard !page.isEmpty else { break }
            records += try page.map { AppState.Record(type: $0.type, data: try $0.data(), streamVersion: $0.streamVersion) }
        }
        guard let state = try AppState(appID: app, stream: records) else { throw Refusal(.notFound, "app \(app) does not exist") }
        return state
    }
}
