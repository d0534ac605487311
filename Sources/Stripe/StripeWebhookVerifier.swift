import WebhookSigning

/// Verifies a webhook from Stripe as Stripe documents it ("Verify webhook signatures"):
/// the `Stripe-Signature` header's `t=` and one or more `v1=` values, each the lowercase
/// hex HMAC-SHA256 of `"{t}.{raw body}"` keyed with an endpoint secret (`whsec_…`, its
/// whole text); any `v1` made with any configured secret verifies, so that a secret rolled
/// and its predecessor both verify while both are configured; `v0` and schemes unknown are
/// ignored; comparisons take the same time whatever matches. Then the body is read as an
/// event. The check is the ledger's own webhook signature's (`WebhookSignature`), which
/// follows the same scheme.
public struct StripeWebhookVerifier: Sendable {
    public static let header = "Stripe-Signature"
    /// Stripe's libraries' default: five minutes.
    public static let defaultTolerance: Double = 300

    /// The app's endpoint secrets, more than one while one is rolled.
    public var secrets: [String]
    /// How far `t` may be from this clock, either way, in seconds.
    public var tolerance: Double

    public init(secrets: [String], tolerance: Double = defaultTolerance) {
        self.secrets = secrets
        self.tolerance = tolerance
    }

    /// The event the body holds, once its signature verified at `now` (Unix seconds).
    public func verify(header value: String?, body: [UInt8], now: Double) throws(StripeWebhookError) -> StripeEvent {
        guard !secrets.isEmpty else { throw StripeWebhookError(.signatureMismatch, "no endpoint secret is configured for this app") }
        do {
            try WebhookSignature.verify(value, body: body, secrets: secrets, now: now, tolerance: tolerance, headerName: Self.header)
        } catch {
            let code: StripeWebhookError.Code = switch error.code {
            case .missing: .signatureMissing
            case .malformed: .signatureMalformed
            case .stale: .signatureStale
            case .mismatch: .signatureMismatch
            }
            throw StripeWebhookError(code, error.message)
        }
        return try StripeEvent(body: body)
    }
}
