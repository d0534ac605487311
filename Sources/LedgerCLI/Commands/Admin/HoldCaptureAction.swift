import LedgerDomain
import LedgerServices

/// `ledger admin hold capture`: `hold.captured` on `hold-<id>`: the amount (default the
/// whole hold) posts as a `hold_capture` entry and the rest is released.
struct HoldCaptureAction: AdminAction {
    static let words = ["hold", "capture"]
    static let synopsis = "--id ID [--amount AMOUNT]"
    static let summary = "Capture a hold, wholly or partly (never more than it holds); it is then settled."
    static let valued: Set<String> = ["id", "amount"]

    let id: String
    let amount: Millicredits?

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "hold")
        amount = try options.optionalAmount("amount", .positive)
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        AdminReceipt(events: try session.perform(HoldSettleAct(id: id, .capture(amount))))
    }
}
