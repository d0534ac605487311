import Foundation
import LedgerDomain
import Testing
import TestSupport

/// The catalog's pure rules: rollout and variant assignment over many generated users,
/// annualized savings, trial durations.
@Suite(.bounded) struct CatalogRulesTests {
    /// 10,000 generated user ids per case: the share inside the rollout is within four
    /// standard deviations of the percent (a binomial; ±2 % at 50 %).
    @Test("rollout: the share of 10,000 generated users matches the percent; the same user always gets the same answer",
          arguments: [0, 1, 10, 25, 33, 50, 75, 99, 100])
    func rolloutShare(_ percent: Int) {
        var rng = SeededRandom(seed: Property.seed("rolloutShare", percent))
        let users = (0..<10_000).map { _ in "user-" + String(rng.next(), radix: 36) }
        let inside = users.filter { RolloutBucket.isInRollout(app: "demo", campaign: "switch-save", user: $0, percent: percent) }
        let p = Double(percent) / 100
        let sigma = (p * (1 - p) / Double(users.count)).squareRoot()
        let share = Double(inside.count) / Double(users.count)
        #expect(abs(share - p) <= 4 * sigma + 1e-12, "\(percent) %: \(inside.count) of \(users.count)")
        for user in users.prefix(500) {
            #expect(RolloutBucket.isInRollout(app: "demo", campaign: "switch-save", user: user, percent: percent)
                    == inside.contains(user))
        }
        // Rollouts are nested: a user inside 10 % is inside 50 %.
        if percent < 100 {
            #expect(inside.allSatisfy { RolloutBucket.isInRollout(app: "demo", campaign: "switch-save", user: $0, percent: percent + 1) })
        }
    }

    @Test("variants: shares follow the weights over 10,000 users, and do not follow the rollout bucket")
    func variantShares() {
        var rng = SeededRandom(seed: Property.seed("variantShares", 0))
        let variants = [CampaignVariant(id: 1, weight: 50), CampaignVariant(id: 2, weight: 30), CampaignVariant(id: 7, weight: 20)]
        let users = (0..<10_000).map { _ in "u" + String(rng.next(), radix: 16) }
        var counts: [Int64: Int] = [:]
        var insideHalf: [Int64: Int] = [:]
        for user in users {
            let v = RolloutBucket.variant(app: "demo", campaign: "c", user: user, among: variants)!.id
            counts[v, default: 0] += 1
            if RolloutBucket.isInRollout(app: "demo", campaign: "c", user: user, percent: 50) { insideHalf[v, default: 0] += 1 }
            #expect(RolloutBucket.variant(app: "demo", campaign: "c", user: user, among: variants)?.id == v)
        }
        for variant in variants {
            let p = Double(variant.weight) / 100
            let sigma = (p * (1 - p) / Double(users.count)).squareRoot()
            #expect(abs(Double(counts[variant.id] ?? 0) / Double(users.count) - p) <= 4 * sigma, "variant \(variant.id)")
            // Independent of the rollout: about half of each variant is inside a 50 % rollout.
            let half = Double(insideHalf[variant.id] ?? 0) / Double(counts[variant.id] ?? 1)
            #expect(abs(half - 0.5) < 0.05, "variant \(variant.id): \(half)")
        }
        #expect(RolloutBucket.variant(app: "demo", campaign: "c", user: "x", among: []) == nil)
        // Another campaign or app shuffles users anew.
        let moved = users.prefix(2_000).filter {
            RolloutBucket.variant(app: "demo", campaign: "c", user: $0, among: variants)?.id
                != RolloutBucket.variant(app: "demo", campaign: "d", user: $0, among: variants)?.id
        }
        #expect(moved.count > 800)
    }

    @Test("ISO 8601 durations: parsed strictly, written back, per year, and as the seed's duration token")
    func durations() {
        let cases: [(String, String, String)] = [("P7D", "1_week", "P7D"), ("P3D", "3_days", "P3D"), ("P1M", "1_month", "P1M"),
                                                 ("P2W", "2_weeks", "P2W"), ("P1Y", "1_year", "P1Y"), ("P14D", "2_weeks", "P14D"),
                                                 ("P1D", "1_day", "P1D"), ("P1M3D", "33_days", "P1M3D")]
        for (text, token, back) in cases {
            let d = ISODuration(text)
            #expect(d?.token == token, "\(text)")
            #expect(d?.description == back, "\(text)")
        }
        for bad in ["", "P", "7D", "P7", "PD", "P1D1D", "P1D1M", "PT1H", "p7d", "P-1D", "P12345D", "P1.5M"] {
            #expect(ISODuration(bad) == nil, "\(bad)")
        }
        #expect(ISODuration("P1M")!.perYear! == 12)
        #expect(ISODuration("P1Y")!.perYear! == 1)
    }

    @Test("savings_percent: annualized, rounded down, 0 when not computable or not cheaper")
    func savings() throws {
        func catalog(from: Price?, fromPeriod: String?, to: Price?, toPeriod: String?) -> CatalogResolver {
            let a = CatalogProduct(id: "a", displayName: "a", description: "", type: .autoRenewableSubscription, webPrice: from,
                                   subscriptionGroupID: 1, subscriptionPeriod: fromPeriod)
            let b = CatalogProduct(id: "b", displayName: "b", description: "", type: .autoRenewableSubscription, webPrice: to,
                                   subscriptionGroupID: 1, subscriptionPeriod: toPeriod)
            return CatalogResolver(catalog: AppCatalog(appID: "x", bundleID: "x", products: [a, b]))
        }
        let path = UpgradeOfferConfig.Path(fromProductID: "a", toProductID: "b", upgradeType: .webToWeb)
        let usd = { (micros: Int64) in Price(amountMicros: micros, currencyCode: "USD") }
        #expect(catalog(from: usd(10_000_000), fromPeriod: "P1M", to: usd(96_000_000), toPeriod: "P1Y").savingsPercent(path) == 20)
        #expect(catalog(from: usd(9_990_000), fromPeriod: "P1M", to: usd(79_990_000), toPeriod: "P1Y").savingsPercent(path) == 33)
        #expect(catalog(from: usd(10_000_000), fromPeriod: "P1M", to: usd(150_000_000), toPeriod: "P1Y").savingsPercent(path) == 0)
        #expect(catalog(from: usd(10_000_000), fromPeriod: nil, to: usd(96_000_000), toPeriod: "P1Y").savingsPercent(path) == 0)
        #expect(catalog(from: usd(10_000_000), fromPeriod: "P1M", to: Price(amountMicros: 1, currencyCode: "EUR"), toPeriod: "P1Y").savingsPercent(path) == 0)
        #expect(catalog(from: usd(0), fromPeriod: "P1M", to: usd(0), toPeriod: "P1Y").savingsPercent(path) == 0)
        // Generated prices: always 0…100, and exact whole percentages stay exact.
        try Property.check("savingsRange", count: 500) { rng, seed in
            let monthly = Int64(rng.int(1...50_000)) * 1_000
            let percent = rng.int(0...99)
            let yearly = monthly * 12 * Int64(100 - percent) / 100
            let result = catalog(from: usd(monthly), fromPeriod: "P1M", to: usd(yearly), toPeriod: "P1Y").savingsPercent(path)
            #expect((0...100).contains(result), "seed \(seed)")
            if monthly * 12 * Int64(100 - percent) % 100 == 0 { #expect(result == percent, "seed \(seed): \(monthly) \(percent)") }
        }
    }
}
