import LedgerDomain

/// One record of a list page: a payer, project, organization or app with its name, or a
/// user of an app; with the position (and time, when known) of its latest event.
public struct DirectoryItem: Sendable, Equatable {
    public var kind: DirectoryKind
    public var id: String
    /// A user's app.
    public var app: String?
    /// Nil for users, who have none.
    public var name: String?
    public var lastPosition: Int64?
    public var lastOccurredAt: Timestamp?

    public init(kind: DirectoryKind, id: String, app: String? = nil, name: String? = nil, lastPosition: Int64? = nil,
                lastOccurredAt: Timestamp? = nil) {
        self.kind = kind
        self.id = id
        self.app = app
        self.name = name
        self.lastPosition = lastPosition
        self.lastOccurredAt = lastOccurredAt
    }
}
