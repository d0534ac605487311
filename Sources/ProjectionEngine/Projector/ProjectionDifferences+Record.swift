import EventStore
import Foundation
import LedgerDomain

extension ProjectionDifferences {
    /// The `projection.rebuilt` fact of this comparison: the tables it changed and how many
    /// accounts' figures moved.
    public var rebuiltRecord: ProjectionRebuilt {
        ProjectionRebuilt(projection: projection, comparedAt: position,
                          tables: tables.filter { !$0.isUnchanged },
                          accountsChanged: Set(accounts.map(\.account)).count)
    }

    /// Appends the record of rebuilds that were swapped in, as `actor` with `reason`,
    /// under `key`; the position of the first event. The swap has committed already, so a
    /// failed append is tried again, up to `attempts` times a second apart: the key makes
    /// every attempt after an unknown outcome record it once. Rethrows the last failure.
    public static func record(_ differences: [ProjectionDifferences], store: EventStore, actor: Actor, reason: String,
                              requestID: String, key: String, attempts: Int = 3) throws -> Int64 {
        let decision = try ProjectionDecider.rebuilt(differences.map(\.rebuiltRecord), key: key)
        let request = AppendRequest(decision, metadata: EventMetadata(actor: actor, requestID: requestID, reason: reason))
        var attempt = 1
        while true {
            do { return try store.append(request).events.first?.position ?? 0 } catch {
                guard attempt < attempts else { throw error }
                attempt += 1
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }
}
