import LedgerDomain
import ProjectionEngine
import Projections

/// One payer as `ledger admin payer show` prints it: its plan and allowance, the projects
/// it funds now, its keys and its balance (B1–B4, as `GET /v1/payers/{id}/balance`
/// answers it), all from one snapshot, so that the figures printed together agree.
public struct PayerOverviewQuery: LedgerQuery {
    public var id: String

    public init(_ id: String) { self.id = id }

    /// What the command prints about the payer.
    public struct Overview: Sendable {
        public var payer: BillingDirectory.Payer
        public var keys: [BillingDirectory.Key]
        public var balance: BalanceView?
    }

    public var projections: [any Projection] { [BillingProjection()] }
    public var subject: QuerySubject { .account(.payer(id)) }

    public func read(_ reads: QueryReads) throws -> Overview? {
        try reads.billing.snapshot(now: reads.now) { snapshot in
            guard let payer = try snapshot.payers(id: id).first else { return nil }
            return Overview(payer: payer, keys: try snapshot.keys(of: KeyPrincipal(kind: .payer, id: id)),
                            balance: try BalanceView.read(.payer(id), reader: snapshot))
        }
    }
}
