/// What one run of an operator command printed and its exit status, so that a test can
/// check all three without spawning a process.
public struct AdminOutcome: Sendable, Equatable {
    /// 0: done; 1: refused by the ledger (or the database failed); 2: a usage error.
    public var status: Int32
    /// Standard output: the report, or one JSON object with `--json`.
    public var output: String
    /// Standard error: what went wrong, for people.
    public var errors: String

    /// An outcome as a command produced it.
    public init(status: Int32, output: String, errors: String) {
        self.status = status
        self.output = output
        self.errors = errors
    }
}
