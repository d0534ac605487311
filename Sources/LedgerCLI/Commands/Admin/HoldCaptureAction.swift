import LedgerDomain

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
        let hold = try HoldStream.openHold(id, session: session)
        let captured = amount ?? hold.amount
        guard captured <= hold.amount else {
            throw AdminError(.exceedsHold, "cannot capture \(captured) from hold \(id): it holds \(hold.amount)")
        }
        let event = try session.event(HoldCaptured(holdID: id, amount: captured), on: HoldStream.name(id))
        return AdminReceipt(events: try HoldStream.settle(id, with: event, session: session))
    }
}
