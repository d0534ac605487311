import AppStore
import LedgerJSON

extension AppStoreServerAPIClient {
    /// A signed transaction from an answer, verified: chain and signature under the
    /// configuration's policy, exactly the environment of the host asked, the app's bundle id.
    func verifiedTransaction(_ jws: String, in field: String) throws(AppStoreServerAPIError) -> AppStoreSignedValue<AppStoreTransaction> {
        guard case .transaction(let transaction) = try verified(jws, in: field, expecting: "transaction") else {
            throw AppStoreServerAPIError(.unverifiedSignedValue, "\(field) is not a signed transaction")
        }
        return AppStoreSignedValue(jws: jws, value: transaction)
    }

    /// Signed renewal info from an answer, verified as a transaction is (it names no bundle id).
    func verifiedRenewalInfo(_ jws: String, in field: String) throws(AppStoreServerAPIError) -> AppStoreSignedValue<AppStoreRenewalInfo> {
        guard case .renewalInfo(let info) = try verified(jws, in: field, expecting: "renewal info") else {
            throw AppStoreServerAPIError(.unverifiedSignedValue, "\(field) is not signed renewal info")
        }
        return AppStoreSignedValue(jws: jws, value: info)
    }

    /// A notification's `signedPayload` from an answer, verified with its nested values, and
    /// naming this app's Apple id when the configuration has one.
    func verifiedNotification(_ jws: String, in field: String) throws(AppStoreServerAPIError) -> AppStoreSignedValue<AppStoreNotification> {
        guard case .notification(let notification) = try verified(jws, in: field, expecting: "notification") else {
            throw AppStoreServerAPIError(.unverifiedSignedValue, "\(field) is not a signed notification")
        }
        if let expected = configuration.appAppleID {
            // Apple names the app in production; a sandbox notification may leave it out.
            if let named = notification.appAppleID, named != expected {
                throw AppStoreServerAPIError(.unverifiedSignedValue, "\(field) is for app \(named), not \(expected)")
            }
            if notification.appAppleID == nil && configuration.environment.signedEnvironment == AppStoreEnvironmentPolicy.Environment.production {
                throw AppStoreServerAPIError(.unverifiedSignedValue, "\(field) names no appAppleId, which production notifications always do")
            }
        }
        return AppStoreSignedValue(jws: jws, value: notification)
    }

    private func verified(_ jws: String, in field: String, expecting kind: String) throws(AppStoreServerAPIError) -> AppStoreVerified {
        do {
            return try verifier.verifyAny(jws, expectedEnvironment: configuration.environment.signedEnvironment)
        } catch {
            throw AppStoreServerAPIError(.unverifiedSignedValue, "\(field) (a \(kind)) did not verify: \(error)", verification: error)
        }
    }
}

/// Reading the documented fields of an answer; a missing or mistyped one is
/// `malformed_answer`, naming it.
struct AnswerFields {
    let json: JSONValue
    let endpoint: String

    init(_ json: JSONValue?, endpoint: String) throws(AppStoreServerAPIError) {
        guard let json, json.objectValue != nil else {
            throw AppStoreServerAPIError(.malformedAnswer, "\(endpoint) answered without a JSON object")
        }
        self.json = json
        self.endpoint = endpoint
    }

    func string(_ key: String) throws(AppStoreServerAPIError) -> String {
        guard let value = json[key]?.stringValue else { throw missing(key, "a string") }
        return value
    }

    func optionalString(_ key: String) throws(AppStoreServerAPIError) -> String? {
        guard let value = json[key], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw missing(key, "a string") }
        return text
    }

    func bool(_ key: String, default fallback: Bool? = nil) throws(AppStoreServerAPIError) -> Bool {
        guard let value = json[key], !value.isNull else {
            if let fallback { return fallback }
            throw missing(key, "a boolean")
        }
        guard let flag = value.boolValue else { throw missing(key, "a boolean") }
        return flag
    }

    func optionalInt64(_ key: String) throws(AppStoreServerAPIError) -> Int64? {
        guard let value = json[key], !value.isNull else { return nil }
        guard let number = value.int64Value else { throw missing(key, "an integer") }
        return number
    }

    /// An array member; absent or null is empty (Apple leaves out empty lists).
    func array(_ key: String) throws(AppStoreServerAPIError) -> [JSONValue] {
        guard let value = json[key], !value.isNull else { return [] }
        guard let items = value.arrayValue else { throw missing(key, "an array") }
        return items
    }

    func strings(_ key: String) throws(AppStoreServerAPIError) -> [String] {
        var out: [String] = []
        for item in try array(key) {
            guard let text = item.stringValue else { throw missing(key, "an array of strings") }
            out.append(text)
        }
        return out
    }

    func nested(_ item: JSONValue, _ what: String) throws(AppStoreServerAPIError) -> AnswerFields {
        try AnswerFields(item, endpoint: "\(endpoint) (\(what))")
    }

    private func missing(_ key: String, _ kind: String) -> AppStoreServerAPIError {
        AppStoreServerAPIError(.malformedAnswer, "\(endpoint): `\(key)` should be \(kind)")
    }
}
