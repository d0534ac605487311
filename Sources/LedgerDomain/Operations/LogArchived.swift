/// `log.archived`, on `log-archive`: an operator exported whole partitions of the log to
/// files and is about to detach them (`ledger archive`). Appended before the detach, so
/// the log itself says which positions left the database, in which files, and the hash
/// the live chain continues from; the chain then protects that hash like any other.
public struct LogArchived: DomainEvent {
    public static let type = "log.archived"
    public static let stream = "log-archive"

    /// One file: a partition's events, in order, as `ledger export events --format jsonl`.
    public struct File: Codable, Sendable, Hashable {
        public var name: String
        public var partition: String
        public var firstPosition: Int64
        public var lastPosition: Int64
        public var events: Int64
        /// SHA-256 of the file's bytes, in hex.
        public var sha256: String
        /// The hash of the file's last event.
        public var lastHash: String
        enum CodingKeys: String, CodingKey {
            case name, partition, firstPosition = "first_position", lastPosition = "last_position", events, sha256, lastHash = "last_hash"
        }
        public init(name: String, partition: String, firstPosition: Int64, lastPosition: Int64, events: Int64, sha256: String, lastHash: String) {
            self.name = name
            self.partition = partition
            self.firstPosition = firstPosition
            self.lastPosition = lastPosition
            self.events = events
            self.sha256 = sha256
            self.lastHash = lastHash
        }
    }

    /// Positions 1 to `archivedThrough` are archived once this is applied, this act's files
    /// and every earlier act's together.
    public var archivedThrough: Int64
    /// The hash of the event at `archivedThrough`: the live log's first event links to it.
    public var lastHash: String
    public var files: [File]
    enum CodingKeys: String, CodingKey { case archivedThrough = "archived_through", lastHash = "last_hash", files }
    public init(archivedThrough: Int64, lastHash: String, files: [File]) {
        self.archivedThrough = archivedThrough
        self.lastHash = lastHash
        self.files = files
    }
}
