import Foundation
import LedgerDomain
import LedgerJSON

/// The options that say who sees a campaign and how, shared by `campaign migration` and
/// `campaign upgrade`; their judgement is `CampaignTargeting.problems`, which the caller
/// reports together with its own.
enum CampaignTargetingOptions {
    static let valued: Set<String> = ["min-days", "max-days", "trial-days", "rollout", "variants", "display", "prompts", "presentation"]
    static let synopsis = "[--min-days N] [--max-days N] [--trial-days N] [--rollout PERCENT] [--variants ID:WEIGHT,…] [--display FILE.json] [--prompts FILE.json] [--presentation inline|sheet]"
    /// Campaign files are copy, not data: anything larger is a mistake (and an event holds at most 1 MiB).
    static let maximumFileBytes = 256 * 1024

    static func parse(_ options: AdminOptions) throws -> CampaignTargeting {
        var targeting = CampaignTargeting()
        targeting.minSubscriptionDays = try options.integer("min-days") ?? 0
        targeting.maxSubscriptionDays = try options.integer("max-days")
        targeting.freeTrialDays = try options.integer("trial-days") ?? 0
        targeting.rolloutPercent = try options.integer("rollout") ?? 100
        if let text = options.arguments.value("variants") { targeting.variants = try variants(text) }
        if let path = options.arguments.value("display") { targeting.display = try display(try jsonFile(path, option: "display")) }
        if let path = options.arguments.value("prompts") { targeting.perProductPrompts = try jsonFile(path, option: "prompts") }
        targeting.checkoutPresentation = try options.optionalChoice("presentation", CheckoutPresentation.self)
        return targeting
    }

    /// `1:50,2:50`: variant id and weight, in order.
    static func variants(_ text: String) throws -> [CampaignVariant] {
        try text.split(separator: ",", omittingEmptySubsequences: false).map { item in
            let parts = item.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let id = Millicredits(canonical: String(parts[0]))?.int64,
                  let weight = Millicredits(canonical: String(parts[1]))?.int64, weight.magnitude <= Int32.max.magnitude else {
                throw UsageError("--variants must be ID:WEIGHT pairs separated by commas, such as 1:50,2:50; got \(String(item).debugDescription)")
            }
            return CampaignVariant(id: id, weight: Int(weight))
        }
    }

    /// The tip card's copy. Keys it does not know are refused, since a misspelt one would
    /// silently show the SDK's default text instead.
    static func display(_ json: JSONValue) throws -> OfferDisplay {
        guard let members = json.objectValue else { throw UsageError("--display must hold a JSON object") }
        let known = Set((try JSONValueEncoder().encode(OfferDisplay()).objectValue ?? [:]).keys)
        let unknown = members.keys.filter { !known.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw UsageError("--display has unknown keys \(unknown.joined(separator: ", ")); the keys are \(known.sorted().joined(separator: ", "))")
        }
        if let key = members.keys.sorted().first(where: { members[$0]?.stringValue == nil }) {
            throw UsageError("--display: \(key) must be a string")
        }
        return try JSONValueDecoder().decode(OfferDisplay.self, from: json)
    }

    static func jsonFile(_ path: String, option: String) throws -> JSONValue {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("--\(option) \(path.debugDescription): cannot read the file")
        }
        guard data.count <= maximumFileBytes else {
            throw UsageError("--\(option) \(path.debugDescription) is \(data.count) bytes long; at most \(maximumFileBytes) are allowed")
        }
        do {
            return try JSONValue.parse(Array(data))
        } catch {
            throw UsageError("--\(option) \(path.debugDescription) is not JSON: \(error)")
        }
    }
}
