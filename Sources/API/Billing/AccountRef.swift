import Projections

/// `{"kind", "id"}` in responses.
struct AccountRef: Codable, Sendable, Equatable {
    var kind: String
    var id: String
}

extension BillingAccount {
    var json: AccountRef { AccountRef(kind: kind, id: id) }
}
