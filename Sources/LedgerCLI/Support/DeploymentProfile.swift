import Foundation

/// How the service runs: `production` unless the development profile is asked for by name.
///
/// The profile decides what fails open for a developer's convenience and closed for
/// everyone else: plain-`http` webhooks to loopback, the console on by default, secrets made
/// per process, development App Store roots. So it fails closed itself (docs/security.md): an
/// unset `LEDGER_ENVIRONMENT` is production, an unknown one is a startup error, and only
/// the exact word `development` (or `ledger dev`, or a command in a clone that uses the
/// cluster `ledger dev` made) gives development.
public enum DeploymentProfile: String, Sendable, CaseIterable {
    case production
    case development

    /// Where the profile came from, for the line a process starts with.
    public enum Source: String, Sendable {
        /// LEDGER_ENVIRONMENT names it.
        case setting = "LEDGER_ENVIRONMENT"
        /// LEDGER_ENVIRONMENT is unset: production.
        case unset = "LEDGER_ENVIRONMENT unset"
        /// LEDGER_ENVIRONMENT and DATABASE_URL are unset, and the command uses the cluster
        /// `ledger dev` described in LEDGER_DATA_DIR/demo.json.
        case devCluster = "the dev cluster of ledger dev"
        /// `ledger dev` itself, and the processes it starts.
        case dev = "ledger dev"
    }

    /// The profile `text` names; a value that is not exactly one of the names is refused
    /// with what it may have meant, never taken for either.
    public init(parsing text: String) throws(UnknownProfile) {
        guard let profile = DeploymentProfile(rawValue: text) else { throw UnknownProfile(value: text) }
        self = profile
    }

    /// An unknown LEDGER_ENVIRONMENT: a startup error of every command.
    public struct UnknownProfile: Error, CustomStringConvertible, Equatable {
        public var value: String
        public var description: String {
            let lowered = value.lowercased().trimmingCharacters(in: .whitespaces)
            let guess = DeploymentProfile.allCases.first { lowered.hasPrefix(String($0.rawValue.prefix(3))) }
            let hint = guess.map { "; did you mean \($0.rawValue)?" } ?? ""
            return "LEDGER_ENVIRONMENT is \(value.debugDescription), which is neither production nor development\(hint) (unset means production)"
        }
    }
}
