/// `projection.rebuilt`, on `projection-<name>`: an operator rebuilt a projection from the
/// log, saw what the rebuild changes against the live one, and swapped it in (`ledger
/// replay`, or the console). The log itself is unchanged; this records when the figures
/// the API serves may have moved, who decided it, why, and by how much, so an auditor can
/// match a balance that changed without a new event to the act that changed it.
public struct ProjectionRebuilt: DomainEvent {
    public static let type = "projection.rebuilt"

    /// One table's rows the rebuild added, removed and changed (rows whose key is in both
    /// with other values, for tables with a primary key).
    public struct Table: Codable, Sendable, Hashable {
        public var table: String
        public var added: Int
        public var removed: Int
        public var changed: Int
        public var isUnchanged: Bool { added == 0 && removed == 0 && changed == 0 }
        public init(table: String, added: Int, removed: Int, changed: Int) {
            self.table = table
            self.added = added
            self.removed = removed
            self.changed = changed
        }
    }

    public var projection: String
    /// The position the rebuild was compared with the live projection at.
    public var comparedAt: Int64
    /// Only the tables that changed; empty when the rebuild changed nothing.
    public var tables: [Table]
    /// Accounts with at least one figure (a balance, a month's usage) that changed.
    public var accountsChanged: Int
    enum CodingKeys: String, CodingKey { case projection, comparedAt = "compared_at", tables, accountsChanged = "accounts_changed" }

    public init(projection: String, comparedAt: Int64, tables: [Table], accountsChanged: Int) {
        self.projection = projection
        self.comparedAt = comparedAt
        self.tables = tables
        self.accountsChanged = accountsChanged
    }
}
