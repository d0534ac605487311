import Foundation
import LedgerJSON
import Stripe

extension LedgerEnvironment {
    /// The Stripe endpoint secrets of LEDGER_STRIPE_WEBHOOK_SECRETS (none when it is unset):
    /// a JSON file
    ///
    ///     {"apps": [{"app_id": "demo-app", "endpoint_secrets": ["whsec_…", "whsec_…"]}]}
    ///
    /// one entry per app, more than one secret while one is rolled; with the tolerance of
    /// LEDGER_STRIPE_WEBHOOK_TOLERANCE. Every problem names the entry and the field, and
    /// nothing of a secret is ever printed.
    public func stripeWebhookEndpoints() throws -> StripeWebhookEndpoints {
        let tolerance = try positiveSeconds(.stripeWebhookTolerance)
        guard let path = string(.stripeWebhookSecrets) else { return StripeWebhookEndpoints(tolerance: tolerance) }
        func problem(_ text: String) -> ConfigurationError { ConfigurationError(setting: .stripeWebhookSecrets, problem: text) }
        guard let data = FileManager.default.contents(atPath: path) else { throw problem("names \(path), which cannot be read") }
        guard let document = try? JSONValue.parse(Array(data)), let apps = document["apps"]?.arrayValue else {
            throw problem("names \(path), which is not a JSON object with an \"apps\" array")
        }
        var secrets: [String: [String]] = [:]
        for (index, app) in apps.enumerated() {
            guard let appID = app["app_id"]?.stringValue, !appID.isEmpty else {
                throw problem("apps[\(index)] has no app_id (a non-empty string)")
            }
            guard let list = app["endpoint_secrets"]?.arrayValue, !list.isEmpty else {
                throw problem("apps[\(index)] (\(appID)) has no endpoint_secrets (an array of one or more whsec_… secrets)")
            }
            guard secrets[appID] == nil else { throw problem("apps[\(index)]: \(appID) is configured twice (list every secret of an app in one entry)") }
            secrets[appID] = try list.enumerated().map { n, value in
                guard let secret = value.stringValue, StripeWebhookEndpoints.isEndpointSecret(secret) else {
                    throw problem("apps[\(index)] (\(appID)): endpoint_secrets[\(n)] is not an endpoint secret (whsec_ and at least 16 printable characters, from the endpoint's page in Stripe's dashboard)")
                }
                return secret
            }
        }
        return StripeWebhookEndpoints(secrets: secrets, tolerance: tolerance)
    }
}
