import AppStore
import AppStoreServerAPI
import AppStoreServerStandIn
import Crypto
import Foundation
import LedgerJSON

/// `ledger dev`'s stand-in for Apple's App Store Server API (docs/appstore.md, "Trying the
/// recovery locally"): on a loopback port, with an In-App Purchase key of its own kept in
/// LEDGER_DATA_DIR/appstore-standin, signing with the development authority the local
/// service trusts. It writes the keys file the projector is given (and that commands run in
/// the clone find), so the projector's notification history sync asks it as it would ask
/// Apple; `POST /standin/notifications` delivers a notification to the ledger or drops it.
struct DevAppStoreStandIn {
    let standIn: AppStoreServerStandIn
    let keysFile: String

    static let issuerID = "00000000-0000-4000-8000-000000000000"
    static let keyID = "DEVSTANDIN"

    static func start(dataDirectory: String, authority: AppStoreTestAuthority, authorityRoot: String, bundleID: String,
                      notificationURL: String) throws -> DevAppStoreStandIn {
        let directory = dataDirectory + "/appstore-standin"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let keyFile = directory + "/AuthKey_\(keyID).p8"
        if !FileManager.default.fileExists(atPath: keyFile) {
            try PrivateFile.write(PEM.encode(AppStoreSigningKey().pkcs8DER, label: "PRIVATE KEY"), to: keyFile)
        }
        let credentials = try AppStoreServerAPICredentials(issuerID: issuerID, keyID: keyID, bundleID: bundleID,
                                                           privateKeyPEM: String(contentsOfFile: keyFile, encoding: .utf8))
        let standIn = try AppStoreServerStandIn(configuration: AppStoreServerStandInConfiguration(
            issuerID: issuerID, keyID: keyID, bundleID: bundleID, key: credentials.key,
            signer: AppStoreTestSigner(authority: authority, bundleID: bundleID), notificationURL: notificationURL))
        let entry: JSONValue = [
            "bundle_id": .string(bundleID), "environment": "local", "base_url": .string(standIn.baseURL),
            "issuer_id": .string(issuerID), "key_id": .string(keyID), "private_key_file": .string(keyFile),
            "trusted_root_file": .string(authorityRoot),
            // The demo's customers consent, so that a refund request is answered locally.
            "consumption_consent": true,
        ]
        let keysFile = directory + "/keys.json"
        try PrivateFile.write((["apps": [entry]] as JSONValue).prettyText(), to: keysFile)
        return DevAppStoreStandIn(standIn: standIn, keysFile: keysFile)
    }

    /// What demo.json says of it.
    var demo: JSONValue {
        ["base_url": .string(standIn.baseURL), "notifications": .string(standIn.baseURL + "/standin/notifications"),
         "keys_file": .string(keysFile)]
    }
}
