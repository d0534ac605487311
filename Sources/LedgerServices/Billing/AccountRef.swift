import LedgerDomain
import Projections

/// `{"kind", "id"}` in responses.
public struct AccountRef: Codable, Sendable, Equatable {
    public var kind: String
    public var id: String

    public init(kind: String, id: String) {
        self.kind = kind
        self.id = id
    }
}

extension BillingAccount {
    public var json: AccountRef { AccountRef(kind: kind, id: id) }
}
