/// Failures injected into the append path by tests (never configured in production).
public struct AppendFaults: Sendable {
    /// Asked once per transaction, after its rows are inserted and before it commits;
    /// `true` makes the server abort that transaction.
    public var abortAfterInsert: @Sendable () -> Bool

    public init(abortAfterInsert: @escaping @Sendable () -> Bool) {
        self.abortAfterInsert = abortAfterInsert
    }

    public static let none = AppendFaults(abortAfterInsert: { false })
}
