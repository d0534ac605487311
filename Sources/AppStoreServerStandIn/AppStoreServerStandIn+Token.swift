import Crypto
import Foundation
import HTTP
import LedgerJSON

extension AppStoreServerStandIn {
    /// Apple refuses a token whose `exp` is more than this after its `iat`.
    public static let longestTokenLifetime: Int64 = 3600
    /// How far in the future an `iat` may be (clock skew) before the token is refused.
    public static let allowedSkew: Int64 = 60

    /// Why `request`'s bearer token is refused, or nil when Apple would accept it: the
    /// header (`alg` ES256, `kid` the key id, `typ` JWT), the ES256 signature with the key,
    /// and the claims (`iss`, `aud` appstoreconnect-v1, `bid`, `iat`, `exp` not past and at
    /// most an hour after `iat`).
    func refusal(of request: HTTPRequest) -> String? {
        guard let authorization = request.headers["Authorization"], authorization.hasPrefix("Bearer ") else {
            return "no bearer token"
        }
        let parts = authorization.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(String(parts[0])), let claimBytes = Base64URL.decode(String(parts[1])),
              let signature = Base64URL.decode(String(parts[2])),
              let header = try? JSONValue.parse(headerBytes), let claims = try? JSONValue.parse(claimBytes) else {
            return "not a compact JWT"
        }
        guard header["alg"]?.stringValue == "ES256" else { return "alg is not ES256" }
        guard header["kid"]?.stringValue == configuration.keyID else { return "unknown kid" }
        guard header["typ"]?.stringValue == "JWT" else { return "typ is not JWT" }
        guard configuration.key.verifies(signature, of: Array("\(parts[0]).\(parts[1])".utf8)) else { return "bad signature" }
        guard claims["iss"]?.stringValue == configuration.issuerID else { return "wrong iss" }
        guard claims["aud"]?.stringValue == "appstoreconnect-v1" else { return "wrong aud" }
        guard claims["bid"]?.stringValue == configuration.bundleID else { return "wrong bid" }
        guard let issued = claims["iat"]?.int64Value, let expires = claims["exp"]?.int64Value else { return "no iat or exp" }
        let now = Int64(configuration.clock().timeIntervalSince1970)
        guard expires > now else { return "expired" }
        guard issued <= now + Self.allowedSkew else { return "issued in the future" }
        guard expires - issued <= Self.longestTokenLifetime else { return "valid for more than an hour" }
        return nil
    }
}
