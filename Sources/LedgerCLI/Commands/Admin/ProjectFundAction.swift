import EventStore
import LedgerDomain

/// `ledger admin project fund`: `project.funding_changed` on `project-<id>`.
struct ProjectFundAction: AdminAction {
    static let words = ["project", "fund"]
    static let synopsis = "--id ID (--self-paying | --payer ID) [--effective-at RFC3339]"
    static let summary = "Change who pays for a project from an instant on (default now; never in the past)."
    static let valued: Set<String> = ["id", "payer", "effective-at"]
    static let boolean: Set<String> = ["self-paying"]

    let id: String
    let funding: Funding
    let effectiveAt: Timestamp?

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "project")
        funding = try options.funding()
        effectiveAt = try options.timestamp("effective-at")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        var payers: [String] = []
        if case .payer(let payer) = funding { payers.append(payer) }
        let now = session.now
        // The time check comes first: it needs no database.
        if let effectiveAt, effectiveAt < now { _ = try session.decide { try AccountsDecider.fundProject(id: id, funding: funding,
            effectiveAt: effectiveAt, now: now, state: .init()) } }
        let state = try session.accountsState(payers: payers, projects: [id])
        let decision = try session.decide {
            try AccountsDecider.fundProject(id: id, funding: funding, effectiveAt: effectiveAt, now: now, state: state)
        }
        let stream = Pool.project(id).ownerStream
        return AdminReceipt(events: try session.append(decision) { error in
            guard error.code == .wrongExpectedVersion else { return nil }
            if error.stream == stream { return AdminError(.notFound, "project \(id) does not exist") }
            if case .payer(let payer) = funding { return AdminError(.notFound, "payer \(payer) does not exist") }
            return nil
        })
    }
}
