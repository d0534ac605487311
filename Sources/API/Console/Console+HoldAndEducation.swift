import LedgerDomain
import LedgerServices

extension ConsoleAct {
    /// Releasing a hold, `HoldSettleAct` as `ledger admin hold release` runs it.
    static let releaseHold = ConsoleAct(
        name: "hold-release", title: "Release a hold",
        fields: [Field(name: "hold", label: "Hold id", hint: "as it was placed; nothing is posted")]
    ) { fields, _ in
        let id = fields["hold"] ?? ""
        guard Identifier.isValid(id) else { throw Console.refusal("The hold id is 1 to 64 of a-z 0-9 _ - from a letter or digit.") }
        return HoldSettleAct(id: id, .release)
    }

    /// Staff's final decision on an organization's education eligibility (O9), as
    /// `ledger admin org education` records it.
    static let decideEducation = ConsoleAct(
        name: "org-education", title: "Decide education eligibility",
        fields: [Field(name: "org", label: "Organization id", hint: "final: automatic eligibility never overrides it"),
                 Field(name: "decision", label: "Decision", hint: "eligible or not-eligible")]
    ) { fields, _ in
        let org = fields["org"] ?? ""
        guard Identifier.isValid(org) else { throw Console.refusal("The organization id is 1 to 64 of a-z 0-9 _ - from a letter or digit.") }
        guard let decision = fields["decision"], ["eligible", "not-eligible"].contains(decision) else {
            throw Console.refusal("The decision is eligible or not-eligible.")
        }
        return OrgEventAct.education(org: org, eligible: decision == "eligible")
    }
}
