/// A read reached positions that are no longer in the database: their partitions were
/// exported and detached (`ledger archive`). Readers that need them read the archive
/// files (`ledger replay --archive`, `ledger verify --archive`).
public struct ArchivedPositions: Error, Sendable, Equatable, CustomStringConvertible {
    public static let code = "log_archived"
    /// The first position asked for, and the first the database still holds.
    public var requested: Int64
    public var firstLive: Int64

    public init(requested: Int64, firstLive: Int64) {
        self.requested = requested
        self.firstLive = firstLive
    }

    public var description: String {
        "positions \(requested) to \(firstLive - 1) are archived (detached from the database by `ledger archive`): read them from the archive files (`ledger replay --archive FILE ...`; the projector reads LEDGER_ARCHIVE_DIR)"
    }
}
