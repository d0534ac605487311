import LedgerDomain
import LedgerJSON

extension ConsumptionInformation {
    /// Refuses, before anything is sent, what Apple would: no consent, a field outside
    /// Apple's range (the domain's `problems`, one definition of Apple's fields).
    func validate() throws(AppStoreServerAPIError) {
        if let problem = problems.first {
            throw AppStoreServerAPIError(.invalidRequest, problem)
        }
    }

    /// Apple's `ConsumptionRequest` body.
    var body: JSONValue {
        var members: [String: JSONValue] = [
            "customerConsented": .bool(customerConsented),
            "sampleContentProvided": .bool(sampleContentProvided),
            "appAccountToken": .string(appAccountToken?.uuidString.lowercased() ?? ""),
        ]
        for field in rangedFields { members[field.name] = .integer(Int64(field.value)) }
        return .object(members)
    }
}
