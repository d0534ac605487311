import Foundation
import LedgerJSON

/// The Stripe API keys of the ledger's apps, read from the JSON file that
/// `LEDGER_STRIPE_API_KEYS` names:
///
///     {"apps": [{"app_id": "screenrig", "secret_key_file": "stripe-screenrig.key"}]}
///
/// Each entry names the app and a file holding the account's secret key (`sk_live_…`,
/// `sk_test_…` or a restricted `rk_…`), read beside the JSON file when relative. The key
/// itself is never in the JSON, so that the file can be reviewed and copied without it.
/// Outside production an entry may also name a `base_url` (a stand-in on loopback).
/// Every mistake names the entry and the field, and no message ever holds a key's bytes.
public enum StripeAPIKeysFile {
    /// The setting naming the file.
    public static let environmentVariable = "LEDGER_STRIPE_API_KEYS"
    /// A key file longer than this is not a key file (and is not read further).
    static let maximumKeyFileBytes = 1024

    /// The configurations of the file `environment[LEDGER_STRIPE_API_KEYS]` names, or none
    /// when it is unset or empty.
    public static func configurations(environment: [String: String],
                                      allowsBaseURL: Bool = false) throws(StripeAPIError) -> [StripeAPIConfiguration] {
        guard let path = environment[environmentVariable], !path.isEmpty else { return [] }
        return try configurations(path: path, allowsBaseURL: allowsBaseURL)
    }

    /// The configurations of the keys file at `path`, in its order. `allowsBaseURL`: an
    /// entry's `base_url` is accepted (never in production, where requests go to Stripe).
    public static func configurations(path: String, allowsBaseURL: Bool = false) throws(StripeAPIError) -> [StripeAPIConfiguration] {
        func problem(_ text: String) -> StripeAPIError {
            StripeAPIError(.configurationInvalid, "\(environmentVariable) (\(path)): \(text)")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw problem("the file cannot be read") }
        guard let document = try? JSONValue.parse(Array(data)), document.objectValue != nil else {
            throw problem("the file is not a JSON object")
        }
        guard let apps = document["apps"]?.arrayValue else { throw problem("there is no \"apps\" array") }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        var seen: Set<String> = []
        var configurations: [StripeAPIConfiguration] = []
        for (index, app) in apps.enumerated() {
            let entry = "apps[\(index)]"
            guard let fields = app.objectValue else { throw problem("\(entry) is not an object") }
            guard let appID = fields["app_id"]?.stringValue, !appID.isEmpty else {
                throw problem("\(entry) has no app_id (a non-empty string)")
            }
            let named = "\(entry) (\(appID))"
            // A key pasted into the JSON is refused without being quoted: it would be read
            // by whoever reviews or copies the file.
            for field in ["secret_key", "api_key", "key"] where fields[field] != nil {
                throw problem("\(named): \(field) is refused; the key belongs in a file named by secret_key_file, never in this JSON")
            }
            for field in fields.keys.sorted() where !["app_id", "secret_key_file", "base_url"].contains(field) {
                throw problem("\(named): unknown field \(field.debugDescription) (known: app_id, secret_key_file, base_url)")
            }
            guard seen.insert(appID).inserted else { throw problem("\(named): the app is configured twice") }
            guard let keyPath = fields["secret_key_file"]?.stringValue, !keyPath.isEmpty else {
                throw problem("\(named) has no secret_key_file (a non-empty string: the path of a file holding the key)")
            }
            let keyURL = keyPath.hasPrefix("/") ? URL(fileURLWithPath: keyPath) : directory.appendingPathComponent(keyPath)
            guard let keyData = FileManager.default.contents(atPath: keyURL.path) else {
                throw problem("\(named): secret_key_file \(keyURL.path) cannot be read")
            }
            guard keyData.count <= maximumKeyFileBytes, let keyText = String(data: keyData, encoding: .utf8) else {
                throw problem("\(named): secret_key_file \(keyURL.path) does not hold a Stripe secret key (it is not one short line of text)")
            }
            let key: StripeSecretKey
            do {
                key = try StripeSecretKey(keyText)
            } catch {
                throw problem("\(named): secret_key_file \(keyURL.path) does not hold a Stripe secret key: \(error.message)")
            }
            var baseURL = StripeAPIConfiguration.stripeBaseURL
            if let value = fields["base_url"] {
                guard allowsBaseURL else { throw problem("\(named): base_url is refused in production (requests go to Stripe)") }
                guard let text = value.stringValue, let url = URLComponents(string: text), ["http", "https"].contains(url.scheme ?? ""),
                      url.host?.isEmpty == false else {
                    throw problem("\(named): base_url must be an http or https URL with a host")
                }
                baseURL = text
            }
            configurations.append(StripeAPIConfiguration(appID: appID, secretKey: key, baseURL: baseURL))
        }
        return configurations
    }
}
