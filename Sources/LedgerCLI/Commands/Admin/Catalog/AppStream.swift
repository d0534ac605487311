import LedgerDomain

/// The stream `app-<id>` that holds an app's configuration, read whole (`ActReads.app`).
enum AppStream {
    /// The app as its stream tells it, or a refusal when it does not exist.
    static func load(_ app: String, session: AdminSession) throws -> AppState {
        do { return try session.acts.reads.app(app) } catch let refusal as Refusal { throw AdminError(refusal) }
    }
}
