import EventStore
import Foundation
import LedgerDomain
import LedgerJSON

/// The organizations `ledger-bench appstore-sync` sells plans to: each created with an
/// account token (the App Store's `appAccountToken`, by which a notification names its
/// organization), as an operator creates one, so that every notification of the run
/// changes a plan of its own and none waits on another's stream.
struct BenchOrganizations: Sendable {
    /// One organization, and the subscription a notification will start for it.
    struct Organization: Sendable {
        var id: String
        var accountToken: UUID
        /// Unique in the run, 16 digits like Apple's.
        var originalTransactionID: String
    }

    /// Names this run's organizations apart from an earlier run's.
    let run: String
    private let transactionBase = Int64.random(in: 0..<800_000_000_000_000)
    /// Organizations made so far: the next one's transaction id follows.
    private var made = 0

    init(run: String) { self.run = run }

    /// `count` new organizations named `bench-<run>-<group>-<i>`.
    mutating func make(_ group: String, _ count: Int) -> [Organization] {
        let first = made
        made += count
        return (0..<count).map { i in
            Organization(id: "bench-\(run)-\(group)-\(i + 1)", accountToken: UUID(),
                         originalTransactionID: String(3_000_000_000_000_000 + transactionBase + Int64(first + i)))
        }
    }

    /// Appends each organization's `org.created` and `org.account_token_created`, dated a
    /// day ago (as the API's tests date an operator's act before the requests they serve),
    /// 500 organizations an append, each append with its own idempotency key; returns the
    /// last position.
    func append(_ organizations: [Organization], to store: EventStore) throws -> Int64 {
        let metadata = EventMetadata(actor: Actor(.system, "ledger-bench"), reason: "ledger bench appstore-sync creates its organizations")
        let dayAgo = Timestamp(microseconds: Int64(Date().timeIntervalSince1970 * 1_000_000) - 86_400_000_000)!
        var position: Int64 = 0
        for first in stride(from: 0, to: organizations.count, by: 500) {
            let batch = organizations[first..<min(organizations.count, first + 500)]
            let events = try batch.flatMap { org -> [EventToAppend] in
                [EventToAppend(stream: "org-" + org.id, type: OrganizationCreated.type,
                               data: try JSONValueEncoder().encode(OrganizationCreated(orgID: org.id, name: org.id)),
                               metadata: metadata, occurredAt: dayAgo),
                 EventToAppend(stream: "org-" + org.id, type: AccountTokenCreated.type,
                               data: try JSONValueEncoder().encode(AccountTokenCreated(orgID: org.id, accountToken: org.accountToken)),
                               metadata: metadata, occurredAt: dayAgo)]
            }
            let result = try store.append(AppendRequest(events: events, idempotencyKey: "ledger-bench:appstore-sync:\(run):orgs-\(first)"))
            position = max(position, result.position)
        }
        return position
    }
}
