import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

/// U6, U7: every byte that leaves for a tenant is cut to its scope.
/// Each event type that makes webhook messages is generated with several tenants in it,
/// every value tagged with the tenant it belongs to; what `EventDisclosure` shows each
/// subject is then read leaf by leaf against those tags, a model of the rule written out
/// here independently of the production code.
@Suite("Tenant disclosure: no surface shows a tenant another's ids, units or amounts", .bounded)
struct TenantDisclosureTests {
    /// A world of tenants: payer `p1` funds `a1` and `a2`, `b` pays for itself, `p2` funds
    /// nothing; two organizations. Every id carries a random suffix so that no id is a part
    /// of another's text.
    struct World {
        var p1, p2, a1, a2, b, o1, o2: String
        /// Who each tagged value (a string, or an integer's decimal text) belongs to.
        var owner: [String: String] = [:]
        /// Values every reader of the event may see (a month, a plan name, a flag).
        var shared: Set<String> = []

        init(_ rng: inout SeededRandom) {
            func id(_ base: String) -> String { base + "-" + rng.string(from: Array("abcdefghjkmnpqrstuvwxyz"), length: 6) }
            p1 = id("payer"); p2 = id("payer"); a1 = id("proj"); a2 = id("proj"); b = id("solo"); o1 = id("org"); o2 = id("org")
            for tenant in [p1, p2, a1, a2, b, o1, o2] { owner[tenant] = tenant }
            for (tenant, kind) in [(p1, "payer"), (p2, "payer"), (a1, "project"), (a2, "project"), (b, "project")] {
                owner[kind + ":" + tenant] = tenant   // a pool or a subject, as events write them
            }
        }

        /// The tenants `subject` may know the values of: itself; for a funded project the
        /// payer it reads as `payer` (U6), whose id but no figures it is shown; for a payer
        /// the projects it funds (U7: the pool's owner reads every project).
        func visible(to subject: WebhookSubject) -> Set<String> {
            var set: Set<String> = [subject.id]
            if subject.kind == .project, subject.id == a1 || subject.id == a2 { set.insert(p1) }
            if subject == WebhookSubject(.payer, p1) { set.formUnion([a1, a2]) }
            return set
        }

        /// A fresh amount or count owned by `tenant`: 12 digits, unique in the world.
        mutating func figure(_ rng: inout SeededRandom, of tenant: String) -> Int64 {
            while true {
                let n = Int64(rng.int(100_000_000_000...999_999_999_999))
                if owner[String(n)] == nil { owner[String(n)] = tenant; return n }
            }
        }
    }

    /// One generated event of `type`, its stream, and its data.
    static func event(_ type: String, _ w: inout World, _ rng: inout SeededRandom) throws -> (stream: String, data: JSONValue) {
        let encoder = JSONValueEncoder()
        func money(_ n: Int64) -> Millicredits { Millicredits(n) }
        switch type {
        case PlanSet.type:
            let pool: Pool = rng.pick([.payer(w.p1), .payer(w.p2), .project(w.b)])
            let owner = pool == .project(w.b) ? w.b : (pool == .payer(w.p1) ? w.p1 : w.p2)
            w.shared.insert("pro")
            return (pool.ownerStream, try encoder.encode(PlanSet(pool: pool, plan: "pro", allowanceStorageBytes: w.figure(&rng, of: owner))))
        case EntryCorrected.type:
            let owner = rng.pick([w.p1, w.b])
            let entry = "je_\(w.figure(&rng, of: owner))_1"
            w.owner[entry] = owner
            let reason = "reason-" + owner
            w.owner[reason] = owner
            return ((owner == w.b ? "project-" : "payer-") + owner,
                    try encoder.encode(EntryCorrected(entryID: entry, amount: money(w.figure(&rng, of: owner)), reason: reason)))
        case MonthClosed.type:
            // The payer's pool, with a line per project it funds (one or both).
            let projects = rng.chance(0.3) ? [rng.pick([w.a1, w.a2])] : [w.a1, w.a2]
            let charges = projects.map { project in
                ProjectCharge(projectID: project, units: Quantity(Int128(w.figure(&rng, of: project))),
                              freeUnits: Quantity(Int128(w.figure(&rng, of: project))),
                              billedUnits: Quantity(Int128(w.figure(&rng, of: project))),
                              unitsAmount: money(w.figure(&rng, of: project)),
                              storageBytes: Quantity(Int128(w.figure(&rng, of: project))),
                              billedStorageBytes: Quantity(Int128(w.figure(&rng, of: project))),
                              storageAmount: money(w.figure(&rng, of: project)), amount: money(w.figure(&rng, of: project)))
            }
            // The pool's allowance and price are the pool's terms, which its projects read too.
            let allowance = w.figure(&rng, of: w.p1), price = w.figure(&rng, of: w.p1)
            w.shared.formUnion([String(allowance), String(price), "2026-10"])
            let month = try #require(UTCMonth("2026-10"))
            return (PoolMonth(.payer(w.p1), month).stream,
                    try encoder.encode(MonthClosed(pool: .payer(w.p1), month: month, allowanceStorageBytes: allowance,
                                                   storagePricePerGiBMonth: money(price), charges: charges)))
        case StaffPlanDecided.type:
            w.shared.insert("premium")
            return ("org-" + w.o1, try encoder.encode(StaffPlanDecided(orgID: w.o1, plan: .premium)))
        case BillingPlanChanged.type:
            w.shared.insert("plus")
            return ("org-" + w.o2, try encoder.encode(BillingPlanChanged(orgID: w.o2, plan: .plus)))
        case AppStoreTransactionRecorded.type:
            let org = rng.pick([w.o1, w.o2])
            let original = String(w.figure(&rng, of: org)), transaction = String(w.figure(&rng, of: org))
            let person = "person-" + org
            w.owner[person] = "the app"   // who bought: not even the organization's backend is told
            w.shared.formUnion(["ai.screenrig.plus.monthly", "plus", "Sandbox", "storekit"])
            let e = AppStoreTransactionRecorded(orgID: org, originalTransactionID: original, transactionID: transaction,
                                                productID: "ai.screenrig.plus.monthly", plan: .plus, purchaseDate: .minimum,
                                                expiresDate: nil, revocationDate: nil, signedDate: .minimum, environment: "Sandbox",
                                                personID: person, via: "storekit", expiredWhenRecorded: false)
            return ("appstore-sub-" + original, try encoder.encode(e))
        case AppStoreSubscriptionEnded.type:
            let org = rng.pick([w.o1, w.o2])
            let original = String(w.figure(&rng, of: org))
            let uuid = "uuid-" + String(w.figure(&rng, of: "apple"))
            w.owner[uuid] = "apple"
            w.shared.insert("REFUND")
            return ("appstore-sub-" + original, try encoder.encode(AppStoreSubscriptionEnded(
                orgID: org, originalTransactionID: original, reason: "REFUND", signedDate: .minimum, notificationUUID: uuid)))
        case WebhookBalanceThresholdCrossed.type:
            let subject = rng.pick([WebhookSubject(.payer, w.p1), WebhookSubject(.project, w.b)])
            let hook = "hook-" + String(w.figure(&rng, of: "operator"))
            w.owner[hook] = "operator"   // the subscription's id is the operator's configuration
            return ("webhook-" + hook, try encoder.encode(WebhookBalanceThresholdCrossed(
                webhookID: hook, subject: subject, threshold: money(w.figure(&rng, of: subject.id)),
                available: money(w.figure(&rng, of: subject.id)), below: true)))
        default:
            Issue.record("no generator for \(type): add one here and a rule to EventDisclosure")
            return ("", .object([:]))
        }
    }

    /// Every scalar of `value`, as text (keys included, so that an id used as a key counts).
    static func leaves(_ value: JSONValue) -> [String] {
        switch value {
        case .object(let members): return members.flatMap { [$0.key] + leaves($0.value) }
        case .array(let items): return items.flatMap(leaves)
        case .string(let s), .decimal(let s): return [s]
        case .integer(let n): return [String(n)]
        case .bool(let b): return [String(b)]
        default: return []
        }
    }

    @Test("every source type has a rule and a generator")
    func everyTypeIsDecided() {
        #expect(EventDisclosure.typesShownToTenants == WebhookMessages.sources)
    }

    @Test("U6, U7: 400 generated worlds, every event type, every tenant as the reader: only its own values, its own lines whole")
    func generated() throws {
        try Property.check("tenant disclosure", count: 400) { rng, seed in
            var w = World(&rng)
            let subjects = [WebhookSubject(.payer, w.p1), WebhookSubject(.payer, w.p2), WebhookSubject(.project, w.a1),
                            WebhookSubject(.project, w.a2), WebhookSubject(.project, w.b), WebhookSubject(.org, w.o1),
                            WebhookSubject(.org, w.o2)]
            for type in WebhookMessages.sources.sorted() {
                let (stream, data) = try Self.event(type, &w, &rng)
                // The subjects the messages go to, and every other tenant as well: a rule must hold
                // whoever reads, not only for the subjects the fan-out picks today.
                let derived = try WebhookMessages.derive(type: type, stream: stream, data: data, previousPlan: nil)
                    .flatMap(\.subjects)
                for subject in subjects {
                    let shown = EventDisclosure.data(ofType: type, stream: stream, data, for: .tenant(subject))
                    let allowed = w.visible(to: subject)
                    for leaf in Self.leaves(shown) {
                        guard let owner = w.owner[leaf], !w.shared.contains(leaf) else { continue }
                        #expect(allowed.contains(owner), "seed \(seed.hex): \(type) shows \(subject) \(leaf), which is \(owner)'s")
                    }
                    // Not vacuous: a subject the event is about sees its own figures.
                    if derived.contains(subject) {
                        let own = Set(Self.leaves(data).filter { w.owner[$0] == subject.id && !w.shared.contains($0) })
                        let seen = Set(Self.leaves(shown))
                        #expect(own.isSubset(of: seen), "seed \(seed.hex): \(type) hides from \(subject) its own \(own.subtracting(seen).sorted())")
                    }
                }
                // Staff read the event whole.
                #expect(EventDisclosure.data(ofType: type, stream: stream, data, for: .staff) == data)
            }
        }
    }

    @Test("a type no rule names shows a tenant nothing")
    func unknownTypesArePrivate() {
        let data: JSONValue = ["project_id": "a", "amount": "12"]
        #expect(EventDisclosure.data(ofType: "usage.recorded", stream: "usage-a", data, for: .tenant(WebhookSubject(.project, "a"))) == .object([:]))
        #expect(EventDisclosure.data(ofType: "some.future_event", stream: "x", data, for: .tenant(WebhookSubject(.project, "a"))) == .object([:]))
    }
}
