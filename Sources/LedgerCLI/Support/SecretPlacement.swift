import Observability

/// Which process holds each secret, and the check that `ledger serve` holds none of
/// another process's.
///
/// `ledger serve` is the internet-facing process: whatever is in its environment is what
/// a compromise of it gives away. It needs none of these:
///
/// - the checkpoint signing key: the active projector signs the log's checkpoints;
/// - the projector's database login: only the projector's role writes the projections,
///   and the API's role reads them (docs/security.md, "Database roles"); the console's
///   **Rebuild and compare** is the one use the API has for it, and without it the
///   console points to `ledger replay`;
/// - the webhook signing key: the webhook sender runs beside the projector in
///   `ledger project`, and subscriptions are added and their secrets rotated by
///   `ledger admin webhook`; nothing in `ledger serve` signs a message;
/// - the console's key: the console is a process of its own, `ledger console`, with a
///   database login of its own (ledger_console) that the API never holds;
/// - the In-App Purchase keys (LEDGER_APPSTORE_API_KEYS): they can ask Apple anything about
///   every subscriber, extend renewals and answer refund requests; what asks Apple runs
///   beside the projector;
/// - the Stripe secret keys (LEDGER_STRIPE_API_KEYS): they can read and move the account's
///   money; the Stripe events sync that uses them runs beside the projector. (The webhook
///   endpoint secrets, which only verify, are the API's.)
///
/// In production `ledger serve` refuses to start with any of them in its environment; in
/// development it warns, so that the console's rebuild can still be tried by hand.
public enum SecretPlacement {
    /// A secret and the process it belongs to.
    public struct Secret: Sendable, Equatable {
        public var setting: LedgerEnvironment.Setting
        /// What it is, in words.
        public var what: String
        /// The process that should hold it, and why.
        public var holder: String
    }

    /// The secrets `ledger serve` never needs, each with the process that does.
    public static let notForTheAPI: [Secret] = [
        Secret(setting: .checkpointKeyFile, what: "the log's checkpoint signing key",
               holder: "`ledger project`, whose active projector signs the checkpoints"),
        Secret(setting: .projectorDatabaseURL, what: "the projector's database login",
               holder: "`ledger project` and `ledger replay`, whose role alone writes the projections"),
        Secret(setting: .webhookKey, what: "the webhook signing key",
               holder: "`ledger project`, whose webhook sender signs the messages (and `ledger admin webhook add|rotate-secret`)"),
        Secret(setting: .consoleSecret, what: "the console's key for its forms' tokens",
               holder: "`ledger console`, the console's own process"),
        Secret(setting: .appStoreAPIKeys, what: "the In-App Purchase keys that call Apple's App Store Server API",
               holder: "`ledger project`, whose jobs ask Apple (and the `ledger appstore` commands that do)"),
        Secret(setting: .stripeAPIKeys, what: "the Stripe secret keys that list each app's events",
               holder: "`ledger project`, whose Stripe events sync asks Stripe (and `ledger stripe reconcile`)"),
    ]

    /// The secrets of another process that `environment` holds (set and not empty).
    public static func misplacedForServe(in environment: LedgerEnvironment) -> [Secret] {
        notForTheAPI.filter { environment.values[$0.setting.name].map { !$0.isEmpty } ?? false }
    }

    /// Refuses, in production, an environment for `ledger serve` that holds another
    /// process's secret; in development logs a warning for each instead.
    public static func checkServe(_ environment: LedgerEnvironment, logger: Logger) throws(HeldByWrongProcess) {
        let misplaced = misplacedForServe(in: environment)
        guard !misplaced.isEmpty else { return }
        if environment.isProduction { throw HeldByWrongProcess(secrets: misplaced) }
        for secret in misplaced {
            logger.warning("\(secret.setting.name) (\(secret.what)) is in the API's environment: it belongs to \(secret.holder); production refuses to start with it",
                           ["code": .string(HeldByWrongProcess.code), "setting": .string(secret.setting.name)])
        }
    }

    /// `ledger serve` was given another process's secret in production.
    public struct HeldByWrongProcess: Error, CustomStringConvertible, Equatable {
        /// The stable code, the first word of the message.
        public static let code = "secret_held_by_wrong_process"
        public var code: String { Self.code }
        /// The secrets found, in `notForTheAPI`'s order.
        public var secrets: [Secret]

        public var description: String {
            let each = secrets.map { "\($0.setting.name) (\($0.what)) belongs to \($0.holder)" }
            return "\(Self.code): " + each.joined(separator: "; ")
                + ". The internet-facing `ledger serve` never needs \(secrets.count == 1 ? "it" : "them"): remove \(secrets.count == 1 ? "it" : "them") from its environment (docs/security.md, \"Each process its own secrets\")."
        }
    }
}
