import Crypto
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import StripeStandIn

/// `ledger dev`'s stand-in for Stripe (docs/web-checkout.md, "Trying it locally"): on a
/// loopback port, with a webhook endpoint on the demo app's URL signed with a secret kept
/// in LEDGER_DATA_DIR/stripe-standin, and the files the API (its endpoint secrets) and the
/// projector (the stand-in's API key, for the events sync) are given. On a log without
/// web checkout, it plays the demo's web customers through it, delivered as Stripe would.
struct DevStripeStandIn {
    let standIn: StripeStandIn
    let webhookURL: String
    let webhookSecret: String
    /// LEDGER_STRIPE_WEBHOOK_SECRETS, for `ledger serve`.
    let webhookSecretsFile: String
    /// LEDGER_STRIPE_API_KEYS, for `ledger project`.
    let keysFile: String

    static func start(dataDirectory: String, app: String, baseURL: String) throws -> DevStripeStandIn {
        let directory = dataDirectory + "/stripe-standin"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let secretFile = directory + "/webhook-secret"
        if !FileManager.default.fileExists(atPath: secretFile) {
            try PrivateFile.write("whsec_" + Hex.encode(SecureRandom.bytes(24)), to: secretFile)
        }
        let secret = try String(contentsOfFile: secretFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let standIn = try StripeStandIn()
        let webhookURL = baseURL + "/v1/stripe/webhooks/" + app
        _ = standIn.addEndpoint(url: webhookURL, secret: secret)
        let keyFile = directory + "/secret-key"
        try PrivateFile.write(standIn.account.secretKey, to: keyFile)
        let keysFile = directory + "/keys.json"
        try PrivateFile.write((["apps": [["app_id": .string(app), "secret_key_file": .string(keyFile), "base_url": .string(standIn.baseURL)]]]
                               as JSONValue).prettyText(), to: keysFile)
        let secretsFile = directory + "/webhook-secrets.json"
        try PrivateFile.write((["apps": [["app_id": .string(app), "endpoint_secrets": [.string(secret)]]]] as JSONValue).prettyText(),
                              to: secretsFile)
        return DevStripeStandIn(standIn: standIn, webhookURL: webhookURL, webhookSecret: secret, webhookSecretsFile: secretsFile,
                                keysFile: keysFile)
    }

    /// The demo's web customers, played once on a log that has no Stripe event of `app`: a
    /// free trial that converted (`web-ana`), an auth-hold trial canceled in its trial, its
    /// hold released (`web-bo`), a lifetime purchase refunded (`web-cy`). Waits (bounded)
    /// until the stand-in delivered them all.
    func playDemo(app: String, store: EventStore) throws -> Bool {
        guard try store.log.streamHead(WebCheckoutDecider.stream(app)) == nil else { return false }
        let now = Int64(Date().timeIntervalSince1970)
        var ana = StripeScenario(start: now - 12 * 86_400, userID: "web-ana", productID: DemoData.monthly, amount: 799)
        var bo = StripeScenario(start: now - 9 * 86_400, userID: "web-bo", productID: DemoData.yearly, amount: 7_999,
                                periodSeconds: 365 * 86_400)
        var cy = StripeScenario(start: now - 6 * 86_400, userID: "web-cy", productID: "ai.screenrig.lifetime", amount: 19_999)
        _ = standIn.record(ana.freeTrialThatConverts(trialDays: 7))
        _ = standIn.record(bo.authHoldTrial(trialDays: 7, holdDays: 7, outcome: .canceledByCustomer))
        _ = standIn.record(cy.refundedPayment(afterDays: 2))
        for _ in 0..<200 where !standIn.isIdle { Thread.sleep(forTimeInterval: 0.05) }
        return standIn.isIdle
    }

    /// What demo.json says of it.
    var demo: JSONValue {
        ["webhook_url": .string(webhookURL), "webhook_secret": .string(webhookSecret), "base_url": .string(standIn.baseURL),
         "events": .string(standIn.baseURL + "/standin/events"), "keys_file": .string(keysFile),
         "users": ["web-ana", "web-bo", "web-cy"]]
    }
}
