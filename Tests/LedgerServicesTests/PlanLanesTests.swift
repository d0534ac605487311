import LedgerDomain
import LedgerServices
import Testing
import TestSupport

/// The console's plan timeline: per source and in force, as `OrganizationPlans` judges
/// each instant, each band with the event that began it.
@Suite("Plan lanes", .bounded)
struct PlanLanesTests {
    static func at(_ text: String) -> Timestamp {
        let p = text.split(separator: "-").map { Int($0)! }
        return Timestamp(year: p[0], month: p[1], day: p[2])!
    }

    @Test("staff, billing and the App Store in lanes; the plan in force changes where the highest does, a downgrade at the month's end")
    func lanes() throws {
        let created = Self.at("2026-08-01")
        let bought = Self.at("2026-09-05")
        let subscription = OrganizationPlans.Subscription(originalTransactionID: "7001", holder: nil, facts: [
            SubscriptionFact(.transaction(.init(transactionID: "8001", productID: "plus.monthly", plan: .plus, purchase: bought,
                                                expires: Self.at("2026-10-05"), revoked: nil, expiredWhenRecorded: false)),
                             signed: bought, position: 30),
        ])
        let plans = OrganizationPlans(
            staff: [PlanTimeline.Change(at: Self.at("2026-09-10"), order: 40, plan: .premium),
                    PlanTimeline.Change(at: Self.at("2026-09-20"), order: 50, plan: nil)],
            billing: [PlanTimeline.Change(at: Self.at("2026-08-15"), order: 20, plan: .plus)],
            subscriptions: [subscription])
        let lanes = PlanLanes(plans, start: created).lanes
        #expect(lanes.map(\.source) == [.staff, .billing, .appStore, nil])
        // The removal by staff is a downgrade: it takes effect at the next month's start.
        #expect(lanes[0].bands == [
            .init(from: Self.at("2026-09-10"), until: Self.at("2026-10-01"), plan: .premium, source: .staff, position: 40),
            .init(from: Self.at("2026-10-01"), until: nil, plan: nil, source: .staff, position: 50),
        ])
        #expect(lanes[1].bands == [.init(from: Self.at("2026-08-15"), plan: .plus, source: .billing, position: 20)])
        // The subscription lapses at its expiry, a removal that takes effect when that month ends: no event began it.
        #expect(lanes[2].bands == [
            .init(from: bought, until: Self.at("2026-11-01"), plan: .plus, source: .appStore, position: 30),
            .init(from: Self.at("2026-11-01"), plan: nil, source: .appStore, position: nil),
        ])
        // In force: the default from the creation, billing's plus, staff's premium, then billing's plus again
        // (the App Store's plus ties with billing's, and billing comes first); its lapse changes nothing.
        #expect(lanes[3].bands.map { "\($0.plan?.rawValue ?? "none") \($0.source?.rawValue ?? "default") \($0.position.map(String.init) ?? "-")" }
                == ["free default -", "plus billing 20", "premium staff 40", "plus billing 50"])
        #expect(lanes[3].bands.map(\.from) == [created, Self.at("2026-08-15"), Self.at("2026-09-10"), Self.at("2026-10-01")])
        for instant in ["2026-08-02", "2026-08-20", "2026-09-15", "2026-10-02", "2026-11-02"].map(Self.at) {
            let band = try #require(lanes[3].bands.last { $0.from <= instant })
            #expect(band.plan == plans.current(at: instant).plan && band.source == plans.current(at: instant).source)
        }
    }

    @Test("an organization with no change is on the default plan from its creation, in one band")
    func none() {
        let lanes = PlanLanes(OrganizationPlans(staff: [], billing: [], subscriptions: []), start: Self.at("2026-08-01")).lanes
        #expect(lanes.prefix(3).allSatisfy { $0.bands.isEmpty })
        #expect(lanes[3].bands == [.init(from: Self.at("2026-08-01"), plan: .free, source: nil, position: nil)])
    }
}
