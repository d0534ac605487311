/// What a journal entry is, for a correction of it.
public struct JournalEntryRef: Sendable, Hashable {
    public var id: JournalEntryID
    /// Every account the entry was posted to (a funded project's entry has two).
    public var accounts: [String]
    public var pool: Pool
    public var projectID: String?
    public var amount: Millicredits
    public var kind: String
    /// The sum of the corrections posted of it so far.
    public var corrected: Millicredits

    public init(id: JournalEntryID, accounts: [String], pool: Pool, projectID: String?, amount: Millicredits, kind: String,
                corrected: Millicredits = .zero) {
        self.id = id
        self.accounts = accounts
        self.pool = pool
        self.projectID = projectID
        self.amount = amount
        self.kind = kind
        self.corrected = corrected
    }
}
