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
        let now = session.now
        let effective = effectiveAt ?? now
        // docs/billing.md: usage is billed to the pool that funded its project at its
        // occurred_at, and that must not change after the fact.
        guard effective >= now else {
            throw AdminError(.effectiveInPast,
                "--effective-at \(effective.iso8601) is before now (\(now.iso8601)): a funding change may not take effect in the past")
        }
        try session.catchUp()
        try session.requireProject(id)
        let stream = Pool.project(id).ownerStream
        var expected: [String: ExpectedVersion] = [stream: .streamExists]
        if case .payer(let payer) = funding {
            try session.requirePayer(payer)
            expected[Pool.payer(payer).ownerStream] = .streamExists
        }
        let event = ProjectFundingChanged(projectID: id, funding: funding, effectiveAt: effective)
        let appended = try session.append([try session.event(event, on: stream)], expecting: expected) { error in
            guard error.code == .wrongExpectedVersion else { return nil }
            if error.stream == stream { return AdminError(.notFound, "project \(id) does not exist") }
            if case .payer(let payer) = funding { return AdminError(.notFound, "payer \(payer) does not exist") }
            return nil
        }
        return AdminReceipt(events: appended)
    }
}
