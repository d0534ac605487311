import AppStore
import Crypto
import Foundation
import LedgerJSON

/// `ledger dev`'s promotional offer key: a P-256 key made once per data directory, with a
/// LEDGER_APPSTORE_OFFER_KEYS file naming it for the demo app's bundle ID, so that
/// `make run` signs promotional offers. Apple knows nothing of it: its signatures show the
/// format, and StoreKit in Xcode or the sandbox refuses them.
enum DevOfferKey {
    /// The key ID the demo signs with: ten upper-case letters and digits, as App Store
    /// Connect's.
    static let keyID = "DEVOFFER01"
    static let directoryName = "appstore-offer-keys"
    static let keysFileName = "offer-keys.json"

    /// The keys file in `dataDirectory`, made with its key the first time (both 0600).
    static func loadOrCreate(in dataDirectory: String, bundleID: String) throws -> String {
        let directory = dataDirectory + "/" + directoryName
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let keyFile = "SubscriptionKey_\(keyID).p8"
        if !FileManager.default.fileExists(atPath: directory + "/" + keyFile) {
            try PrivateFile.write(PEM.encode(AppStoreSigningKey().pkcs8DER, label: "PRIVATE KEY"), to: directory + "/" + keyFile)
        }
        let document: JSONValue = ["apps": [["bundle_id": .string(bundleID), "key_id": .string(keyID), "private_key_file": .string(keyFile)]]]
        let path = directory + "/" + keysFileName
        try PrivateFile.write(document.prettyText(), to: path)
        return path
    }
}
