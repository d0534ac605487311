import EventStore
import LedgerDomain

extension ProjectionDifferences {
    /// The `projection.rebuilt` fact of this comparison: the tables it changed and how many
    /// accounts' figures moved.
    public var rebuiltRecord: ProjectionRebuilt {
        ProjectionRebuilt(projection: projection, comparedAt: position,
                          tables: tables.filter { !$0.isUnchanged }.map {
                              ProjectionRebuilt.Table(table: $0.table, added: $0.added, removed: $0.removed, changed: $0.changed)
                          },
                          accountsChanged: Set(accounts.map(\.account)).count)
    }

    /// Appends the record of rebuilds that were swapped in, as `actor` with `reason`,
    /// under `key` (a retry with the same key records them once); the position of the
    /// first event.
    public static func record(_ differences: [ProjectionDifferences], store: EventStore, actor: Actor, reason: String,
                              requestID: String, key: String) throws -> Int64 {
        let decision = try ProjectionDecider.rebuilt(differences.map(\.rebuiltRecord), key: key)
        let request = AppendRequest(decision, metadata: EventMetadata(actor: actor, requestID: requestID, reason: reason))
        return try store.append(request).events.first?.position ?? 0
    }
}
