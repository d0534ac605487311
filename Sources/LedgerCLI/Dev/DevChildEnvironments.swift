/// The environments `ledger dev` gives the three processes it starts, each with only the
/// secrets it needs (docs/security.md, "Each process its own secrets").
///
/// All start from `ledger dev`'s own environment (the path, the log level, the profile,
/// what the developer exported) without any secret or login, then each gets its own: the
/// API its database login and the keys of what it serves (cursors, sessions, promotional
/// offer signatures); the console its login and its forms' key; the projector its login,
/// which alone writes the projections, and the keys of what it signs (checkpoints, webhook
/// messages). So the development profile runs the separation production's `ledger serve`
/// insists on, rather than handing the API everything.
public struct DevChildEnvironments: Sendable, Equatable {
    /// `ledger serve`'s environment.
    public var api: [String: String]
    /// `ledger console`'s environment.
    public var console: [String: String]
    /// `ledger project`'s environment.
    public var projector: [String: String]

    /// The secrets only `ledger serve` uses.
    public static let apiSecrets: [LedgerEnvironment.Setting] = [.cursorSecret, .sessionSecret, .appStoreOfferKeys, .stripeWebhookSecrets]
    /// Logins no child gets from the parent: each is given its own DATABASE_URL (and its
    /// direct twin with it), and the schema owner's (migrations) stays with `ledger dev`.
    public static let logins: [LedgerEnvironment.Setting] = [.databaseURL, .directDatabaseURL, .migrationDatabaseURL]

    /// `parent` less every secret and login, plus each child's own. A secret given to one
    /// child is in no other's environment.
    public init(parent: [String: String], api: [String: String], console: [String: String], projector: [String: String]) {
        var shared = parent
        for setting in Self.apiSecrets + SecretPlacement.notForTheAPI.map(\.setting) + Self.logins { shared[setting.name] = nil }
        self.api = shared.merging(api) { $1 }
        self.console = shared.merging(console) { $1 }
        self.projector = shared.merging(projector) { $1 }
    }
}
