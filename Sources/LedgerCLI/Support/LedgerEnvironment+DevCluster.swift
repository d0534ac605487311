import Foundation
import LedgerJSON
import Synchronization

// Inside a clone where `make run` (`ledger dev`) has run, a newcomer's commands should
// reach its database without first finding and exporting two URLs (issue 11): with
// DATABASE_URL unset, a command uses the cluster that `ledger dev` described in
// LEDGER_DATA_DIR/demo.json, and says so on one line of standard error.

extension LedgerEnvironment {
    /// The database URLs `ledger dev` wrote to LEDGER_DATA_DIR/demo.json: the service's and
    /// the owner's (for migrations). Nil when DATABASE_URL is set or there is no such file.
    func devCluster() -> (databaseURL: String, adminURL: String, demoFile: String)? {
        guard string(.databaseURL) == nil, let directory = string(.dataDirectory) else { return nil }
        let path = URL(fileURLWithPath: directory).appendingPathComponent("demo.json").standardizedFileURL.path
        guard let data = FileManager.default.contents(atPath: path),
              let document = try? JSONValue.parse(Array(data)),
              let service = document["database_url"]?.stringValue,
              let admin = document["admin_database_url"]?.stringValue else { return nil }
        return (service, admin, path)
    }

    /// The dev cluster's URL (`admin`: the owner's) when DATABASE_URL is unset, announced once.
    func devClusterURL(admin: Bool) -> String? {
        guard let dev = devCluster() else { return nil }
        let url = admin ? dev.adminURL : dev.databaseURL
        let first = Self.announced.withLock { announced in
            defer { announced = true }
            return !announced
        }
        if first {
            FileHandle.standardError.write(Data("ledger: DATABASE_URL is unset; using the dev cluster of \(dev.demoFile) (\(url))\n".utf8))
        }
        return url
    }

    private static let announced = Mutex(false)
}
