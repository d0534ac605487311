import Foundation
import LedgerJSON
import Postgres
import Synchronization

// Inside a clone where `make run` (`ledger dev`) has run, a newcomer's commands should
// reach its database without first finding and exporting two URLs: with
// DATABASE_URL unset, a command uses the cluster that `ledger dev` described in
// LEDGER_DATA_DIR/demo.json (LEDGER_DATA_DIR unset: `.ledger/demo.json` in the working
// directory or a folder above it, up to the clone's root, so from any folder of the
// clone), and says so on one line of standard error.

extension LedgerEnvironment {
    /// The logins `ledger dev` makes on its cluster (docs/security.md).
    enum DevLogin: CaseIterable {
        /// The API's, in ledger_service (`database_url`).
        case service
        /// The console's, in ledger_console (`console_database_url`).
        case console
        /// The developer's own, in ledger_operator (`operator_database_url`): the commands
        /// run at the keyboard, whose acts are recorded under it.
        case `operator`
        /// The projector's, in ledger_projector (`projector_database_url`).
        case projector
        /// The owner's, for migrations (`admin_database_url`).
        case owner

        var field: String {
            switch self {
            case .service: return "database_url"
            case .console: return "console_database_url"
            case .operator: return "operator_database_url"
            case .projector: return "projector_database_url"
            case .owner: return "admin_database_url"
            }
        }
    }

    /// The dev cluster `ledger dev` wrote to LEDGER_DATA_DIR/demo.json (`devDataDirectory`):
    /// its file and its URLs by login. Nil when DATABASE_URL is set or there is no such file.
    func devCluster() -> (demoFile: String, urls: [String: String])? {
        guard string(.databaseURL) == nil else { return nil }
        let path = devDataDirectory() + "/demo.json"
        guard let data = FileManager.default.contents(atPath: path),
              let document = try? JSONValue.parse(Array(data)),
              document["database_url"]?.stringValue != nil else { return nil }
        var urls: [String: String] = [:]
        for login in DevLogin.allCases { urls[login.field] = document[login.field]?.stringValue }
        return (path, urls)
    }

    /// The dev cluster's URL for `login` when DATABASE_URL is unset, announced once (with
    /// its password hidden).
    func devClusterURL(_ login: DevLogin) -> String? {
        guard let dev = devCluster(), let url = dev.urls[login.field] else { return nil }
        let first = Self.announced.withLock { announced in
            defer { announced = true }
            return !announced
        }
        if first {
            let profile = (try? profile().profile.rawValue) ?? "unknown"
            FileHandle.standardError.write(Data("ledger: DATABASE_URL is unset; using the dev cluster of \(dev.demoFile) (\(PostgresURL.redacted(url)); \(profile) profile)\n".utf8))
        }
        return url
    }

    private static let announced = Mutex(false)
}
