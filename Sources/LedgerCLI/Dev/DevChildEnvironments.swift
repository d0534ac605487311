/// The environments `ledger dev` gives the two processes it starts, each with only the
/// secrets it needs (docs/security.md, "Each process its own secrets").
///
/// Both start from `ledger dev`'s own environment (the path, the log level, the
/// profile, what the developer exported) without any secret, then each gets its own: the
/// API its database login and the keys of what it serves (cursors, sessions, the
/// console); the projector its login, which alone writes the projections, and the keys of
/// what it signs (checkpoints, webhook messages). So the development profile runs the
/// separation production's `ledger serve` insists on, rather than handing the API
/// everything.
public struct DevChildEnvironments: Sendable, Equatable {
    /// `ledger serve`'s environment.
    public var api: [String: String]
    /// `ledger project`'s environment.
    public var projector: [String: String]

    /// The secrets only `ledger serve` uses.
    public static let apiSecrets: [LedgerEnvironment.Setting] = [.cursorSecret, .sessionSecret, .consoleSecret]
    /// The secrets only `ledger project` uses: those `ledger serve` refuses in production.
    public static var projectorSecrets: [LedgerEnvironment.Setting] { SecretPlacement.notForTheAPI.map(\.setting) }
    /// Logins neither child gets from the parent: each is given its own DATABASE_URL, and
    /// the schema owner's (migrations) stays with `ledger dev`.
    public static let logins: [LedgerEnvironment.Setting] = [.databaseURL, .migrationDatabaseURL]

    /// `parent` less every secret and login, plus `api` for the API and `projector` for the
    /// projector. A secret given to one child is never in the other's environment.
    public init(parent: [String: String], api: [String: String], projector: [String: String]) {
        var shared = parent
        for setting in Self.apiSecrets + Self.projectorSecrets + Self.logins { shared[setting.name] = nil }
        self.api = shared.merging(api) { $1 }
        self.projector = shared.merging(projector) { $1 }
    }
}
