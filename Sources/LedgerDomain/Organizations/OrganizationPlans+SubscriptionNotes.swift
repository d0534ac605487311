extension OrganizationPlans.Subscription {
    /// What Apple said of the subscription beyond its status, one phrase each, as
    /// `ledger admin org show` and the console write them: who holds the plan, the offer
    /// it was bought with, the latest price increase and renewal date extension.
    public var notes: [String] {
        var notes: [String] = []
        switch latest?.ownership {
        case .purchased: notes.append("held by its buyer")
        case .familyShared: notes.append("held through Family Sharing")
        case nil: break
        }
        if let offer = latest?.offer { notes.append("offer: " + offer.summary) }
        if let p = priceIncrease { notes.append("price increase \(p.status.rawValue) (\(p.signed.iso8601))") }
        if let r = renewalExtension { notes.append("renewal date extension \(r.outcome.rawValue) (\(r.signed.iso8601))") }
        return notes
    }
}
