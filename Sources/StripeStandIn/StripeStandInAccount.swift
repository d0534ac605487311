/// One Stripe account the stand-in plays: its id, the secret API key its requests must
/// bear, and its mode (written in every event's `livemode`).
public struct StripeStandInAccount: Sendable, Equatable {
    /// `acct_…`.
    public var id: String
    /// `sk_test_…` (or `sk_live_…`, `rk_…`): `Authorization: Bearer` must name it.
    public var secretKey: String
    public var livemode: Bool

    public init(id: String, secretKey: String, livemode: Bool = false) {
        self.id = id
        self.secretKey = secretKey
        self.livemode = livemode
    }

    /// A test-mode account with a fresh id and a fresh `sk_test_` key.
    public static func test() -> StripeStandInAccount {
        StripeStandInAccount(id: StripeID.make("acct_", length: 16), secretKey: StripeID.make("sk_test_", length: 40))
    }
}
