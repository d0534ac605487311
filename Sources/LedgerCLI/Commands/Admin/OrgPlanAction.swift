import LedgerDomain

/// `ledger admin org plan`: a staff decision or a billing plan change; upgrades apply at
/// once, downgrades and removals at the next start of a UTC month.
struct OrgPlanAction: OrgEventAction {
    static let words = ["org", "plan"]
    static let synopsis = "--org ID --source staff|billing --plan free|plus|education|premium|none"
    static let summary = "Set (or with none remove) the plan an organization holds from staff or billing."
    static let valued: Set<String> = ["org", "source", "plan"]
    let org: String
    let source: PlanSource
    let plan: Plan?
    init(_ options: AdminOptions) throws {
        org = try options.identifier("org", "organization")
        let sourceText = try options.text("source", maximumLength: 20)
        guard let source = PlanSource(rawValue: sourceText), source != .appStore else {
            throw UsageError("--source must be staff or billing (App Store plans come from Apple), got \(sourceText)")
        }
        self.source = source
        let planText = try options.text("plan", maximumLength: 20)
        if planText == "none" {
            plan = nil
        } else {
            guard let plan = Plan(rawValue: planText) else {
                throw UsageError("--plan must be free, plus, education, premium or none, got \(planText)")
            }
            self.plan = plan
        }
    }
    func decide() throws -> Decision { try OrganizationDecider.setPlan(org: org, source: source, plan: plan) }
}
