import AppStore
import Crypto

/// What identifies the ledger to Apple for one app: the In-App Purchase key (a `.p8` file:
/// PEM, PKCS#8, P-256), its key id, the issuer id of the team's App Store Connect account
/// and the app's bundle id. They come from configuration, one set per app, never from the log.
public struct AppStoreServerAPICredentials: Sendable {
    /// The issuer id (a UUID) shown on App Store Connect's Keys page: the JWT's `iss`.
    public var issuerID: String
    /// The In-App Purchase key's id (ten characters): the JWT header's `kid`.
    public var keyID: String
    /// The app's bundle id: the JWT's `bid`, and what every signed answer must name.
    public var bundleID: String
    /// The In-App Purchase private key; it signs the JWT and never leaves the process.
    public let key: AppStoreSigningKey

    /// Credentials with a key already loaded.
    public init(issuerID: String, keyID: String, bundleID: String, key: AppStoreSigningKey) {
        self.issuerID = issuerID
        self.keyID = keyID
        self.bundleID = bundleID
        self.key = key
    }

    /// Credentials with the key read from the text of the `.p8` file Apple lets one download
    /// once (`-----BEGIN PRIVATE KEY-----`, PKCS#8 P-256).
    public init(issuerID: String, keyID: String, bundleID: String, privateKeyPEM: String) throws(AppStoreServerAPIError) {
        guard let blocks = PEM.blocks("PRIVATE KEY", in: privateKeyPEM), blocks.count == 1 else {
            throw AppStoreServerAPIError(.invalidPrivateKey, "the In-App Purchase key must be one PEM PRIVATE KEY block (a .p8 file)")
        }
        guard let key = AppStoreSigningKey(pkcs8DER: blocks[0]) else {
            throw AppStoreServerAPIError(.invalidPrivateKey, "the In-App Purchase key is not a PKCS#8 P-256 private key")
        }
        self.init(issuerID: issuerID, keyID: keyID, bundleID: bundleID, key: key)
    }
}
