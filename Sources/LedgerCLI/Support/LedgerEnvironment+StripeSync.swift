import EventStore
import Foundation
import LedgerDomain
import LedgerServices
import Postgres
import StripeAPI

extension LedgerEnvironment {
    /// The Stripe API configurations of LEDGER_STRIPE_API_KEYS (none when it is unset);
    /// outside production an entry may name a stand-in's `base_url`.
    public func stripeAPIConfigurations() throws -> [StripeAPIConfiguration] {
        guard let path = string(.stripeAPIKeys) ?? devStripeStandInKeysFile else { return [] }
        let production = isProduction
        do throws(StripeAPIError) {
            return try StripeAPIKeysFile.configurations(path: path, allowsBaseURL: !production)
        } catch {
            throw ConfigurationError(setting: .stripeAPIKeys, problem: error.message)
        }
    }

    /// Where `ledger dev` keeps its Stripe stand-in's keys file, in LEDGER_DATA_DIR.
    public static let devStripeStandInKeysFile = "stripe-standin/keys.json"

    /// `ledger dev`'s stand-in keys file, which commands run in the clone use when
    /// LEDGER_STRIPE_API_KEYS is unset (never in production).
    var devStripeStandInKeysFile: String? {
        guard !isProduction else { return nil }
        let path = devDataDirectory() + "/" + Self.devStripeStandInKeysFile
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// LEDGER_STRIPE_SYNC_EVERY, at least 10 seconds.
    public func stripeSyncSettings() throws -> StripeEventsSync.Settings {
        let every = try double(.stripeSyncEvery)
        guard every >= 10 else {
            throw ConfigurationError(setting: .stripeSyncEvery, problem: "must be at least 10 (seconds), got \(string(.stripeSyncEvery) ?? "")")
        }
        return StripeEventsSync.Settings(every: every)
    }

    /// A sync for each app of LEDGER_STRIPE_API_KEYS. `actor`: who records what is
    /// recovered (the job: Stripe's events API; a command: the operator).
    public func stripeEventsSyncs(connections: PostgresPool, store: EventStore, actor: Actor? = nil) throws -> [StripeEventsSync] {
        let configurations = try stripeAPIConfigurations()
        guard !configurations.isEmpty else { return [] }
        let settings = try stripeSyncSettings()
        return configurations.map { configuration in
            StripeEventsSync(appID: configuration.appID, client: StripeAPIClient(configuration: configuration), settings: settings,
                             connections: connections, store: store, actor: actor ?? Actor(.processor, "stripe-events-api"), now: SystemClock.now)
        }
    }
}
