import LedgerDomain
import LedgerJSON

/// A JWS whose structure, certificate chain and signature were verified, before any check
/// of what its payload says.
struct SignedPayload: Sendable {
    /// The decoded payload, a JSON object.
    let payload: JSONValue
    /// The payload's `signedDate`, at which the chain was checked.
    let signedDate: Timestamp
    /// Signed by a single self-signed certificate (an Xcode JWS) rather than a chain.
    let isSelfSigned: Bool
}
