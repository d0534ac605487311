/// The apps whose Stripe webhooks the API verifies, each with its endpoint secrets (more
/// than one while one is rolled) and one tolerance for `t`: configuration of the API
/// (LEDGER_STRIPE_WEBHOOK_SECRETS), never in the log.
public struct StripeWebhookEndpoints: Sendable {
    public var secrets: [String: [String]]
    public var tolerance: Double

    public init(secrets: [String: [String]] = [:], tolerance: Double = StripeWebhookVerifier.defaultTolerance) {
        self.secrets = secrets
        self.tolerance = tolerance
    }

    /// The verifier of `appID`'s endpoint; nil when it has no secret configured.
    public func verifier(for appID: String) -> StripeWebhookVerifier? {
        guard let secrets = secrets[appID], !secrets.isEmpty else { return nil }
        return StripeWebhookVerifier(secrets: secrets, tolerance: tolerance)
    }

    /// Whether `secret` is an endpoint secret as Stripe writes them: `whsec_` and at least
    /// 16 more printable characters.
    public static func isEndpointSecret(_ secret: String) -> Bool {
        secret.hasPrefix("whsec_") && secret.utf8.count >= 22 && secret.utf8.count <= 512
            && secret.utf8.allSatisfy { (0x21...0x7e).contains($0) }
    }
}
