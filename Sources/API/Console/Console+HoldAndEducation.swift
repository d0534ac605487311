import EventStore
import LedgerDomain

extension ConsoleAct {
    /// Releasing a hold, as `ledger admin hold release` does: `HoldDecider.release` on the
    /// hold's stream read from the log (it alone decides whether the hold is open).
    static let releaseHold = ConsoleAct(
        name: "hold-release", title: "Release a hold",
        fields: [Field(name: "hold", label: "Hold id", hint: "as it was placed; nothing is posted")]
    ) { console, fields in
        let id = fields["hold"] ?? ""
        guard Identifier.isValid(id) else { throw Console.refusal("The hold id is 1 to 64 of a-z 0-9 _ - from a letter or digit.") }
        let events = try console.pool.read { try EventStore.readStream(HoldDecider.stream(id), on: $0) }
        do {
            let state = try HoldDecider.State(stream: try events.map { (type: $0.type, data: try $0.data(), position: $0.position) })
            return try HoldDecider.release(id: id, state: state)
        } catch let refusal as Refusal {
            throw Console.refusal(refusal.message)
        }
    }

    /// Staff's final decision on an organization's education eligibility (O9), as
    /// `ledger admin org education` records it.
    static let decideEducation = ConsoleAct(
        name: "org-education", title: "Decide education eligibility",
        fields: [Field(name: "org", label: "Organization id", hint: "final: automatic eligibility never overrides it"),
                 Field(name: "decision", label: "Decision", hint: "eligible or not-eligible")]
    ) { console, fields in
        let org = fields["org"] ?? ""
        guard let decision = fields["decision"], ["eligible", "not-eligible"].contains(decision) else {
            throw Console.refusal("The decision is eligible or not-eligible.")
        }
        guard !org.isEmpty, try console.pool.read({ try EventStore.streamHead(OrganizationDecider.stream(org), on: $0) }) != nil else {
            throw Console.refusal("There is no organization \(org).")
        }
        return OrganizationDecider.decideEducation(org: org, eligible: decision == "eligible")
    }
}
