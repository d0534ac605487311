import LedgerDomain
import LedgerServices

/// `ledger admin hold release`: `hold.released` on `hold-<id>`: nothing is posted.
struct HoldReleaseAction: AdminAction {
    static let words = ["hold", "release"]
    static let synopsis = "--id ID"
    static let summary = "Release a hold without posting anything; it is then settled."
    static let valued: Set<String> = ["id"]

    let id: String

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "hold")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        AdminReceipt(events: try session.perform(HoldSettleAct(id: id, .release)))
    }
}
