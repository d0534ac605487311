import EventStore
import LedgerDomain
import LedgerServices
import ProjectionEngine
import Projections

/// `ledger admin event set-aside`: the way out of a poison event without a code change
/// (docs/operations.md). The projection that stopped on it skips it, records that it
/// did, and goes on; the event stays in the log for everyone else.
struct EventSetAsideAction: AdminAction {
    static let words = ["event", "set-aside"]
    static let synopsis = "--projection NAME --position N"
    static let summary = "Set aside, for one projection, the event it stopped on (see `ledger projections`); it then goes on."
    static let valued: Set<String> = ["projection", "position"]

    let projection: any Projection
    let position: Int64

    init(_ options: AdminOptions) throws {
        let name = try options.arguments.require("projection")
        guard let projection = AllProjections.named(name) else {
            throw UsageError("--projection must be one of \(AllProjections.all.map(\.name).joined(separator: ", ")), got \(name.debugDescription)")
        }
        self.projection = projection
        let text = try options.arguments.require("position")
        guard let position = Int64(text), position > 0, String(position) == text else {
            throw UsageError("--position must be a positive integer, got \(text.debugDescription)")
        }
        self.position = position
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        var receipt = AdminReceipt(events: try session.perform(EventSetAsideAct(projection: projection, position: position)))
        receipt.lines = ["", "the \(projection.name) projection skips position \(position) from now on, and a replay will too; `ledger audit set-asides` lists it"]
        return receipt
    }
}
