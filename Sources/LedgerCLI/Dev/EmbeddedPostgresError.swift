/// Why a local PostgreSQL cluster (`EmbeddedPostgres`) could not be created, started or
/// stopped. `code` is stable so that scripts and tests can match on it; `message` is for
/// people and, when the server refused to start, ends with the tail of its log.
public struct EmbeddedPostgresError: Error, Sendable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// No `initdb`/`pg_ctl` in /usr/lib/postgresql/*/bin, `pg_config --bindir` or PATH.
        public static let binariesNotFound = Code("binaries_not_found")
        /// Running as root, and no unprivileged account could be found or created to run the server.
        public static let accountUnavailable = Code("account_unavailable")
        /// The cluster directory (or one of its files) could not be created, written or handed over.
        public static let directoryFailed = Code("directory_failed")
        /// `initdb` failed; the message carries its output.
        public static let initdbFailed = Code("initdb_failed")
        /// The server did not come up; the message carries the tail of its log.
        public static let startFailed = Code("start_failed")
        /// `pg_ctl stop` failed or timed out.
        public static let stopFailed = Code("stop_failed")
        /// The cluster is already running, on another port than the one asked for.
        public static let portMismatch = Code("port_mismatch")
        /// A server setting has a malformed name or value, or names one the cluster manages itself.
        public static let invalidSetting = Code("invalid_setting")
        /// `pg_basebackup` could not copy the primary for a standby.
        public static let basebackupFailed = Code("basebackup_failed")
        /// `pg_ctl promote` failed, or no server runs to promote.
        public static let promoteFailed = Code("promote_failed")
        /// `createDatabase(name:)` failed.
        public static let createDatabaseFailed = Code("create_database_failed")
    }

    public var code: Code
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
