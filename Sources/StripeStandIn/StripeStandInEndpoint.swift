/// A webhook endpoint of an account: where its events are delivered, and the endpoint
/// secrets (`whsec_…`) each delivery is signed with, one `v1` per secret: more than one
/// while a secret is rolled, as Stripe signs with the old and the new until the old expires.
public struct StripeStandInEndpoint: Sendable, Equatable {
    /// `we_…`.
    public var id: String
    public var account: String
    public var url: String
    /// The oldest first; each delivery is signed with every one.
    public var secrets: [String]
}
