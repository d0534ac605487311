import AppStore
import Foundation
import LedgerJSON

extension LedgerEnvironment {
    /// The promotional offer signers of LEDGER_APPSTORE_OFFER_KEYS (none when it is unset):
    /// a JSON file
    ///
    ///     {"apps": [{"bundle_id": "ai.screenrig.app", "key_id": "OFFER12345",
    ///                "private_key_file": "SubscriptionKey_OFFER12345.p8"}]}
    ///
    /// one entry per bundle ID (a key signs for sandbox and production alike). A relative
    /// `private_key_file` is read beside the JSON file. Every problem names the entry and
    /// the field, and nothing of a key is ever printed.
    public func promotionalOfferSigners() throws -> [PromotionalOfferSigner] {
        guard let path = string(.appStoreOfferKeys) else { return [] }
        func problem(_ text: String) -> ConfigurationError { ConfigurationError(setting: .appStoreOfferKeys, problem: text) }
        guard let data = FileManager.default.contents(atPath: path) else { throw problem("names \(path), which cannot be read") }
        guard let document = try? JSONValue.parse(Array(data)), let apps = document["apps"]?.arrayValue else {
            throw problem("names \(path), which is not a JSON object with an \"apps\" array")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        var seen: Set<String> = []
        return try apps.enumerated().map { index, app in
            guard app.objectValue != nil else { throw problem("apps[\(index)] is not a JSON object") }
            func field(_ name: String) throws -> String {
                guard let value = app[name]?.stringValue, !value.isEmpty else {
                    throw problem("apps[\(index)] has no \(name) (a non-empty string)")
                }
                return value
            }
            let bundleID = try field("bundle_id")
            let keyID = try field("key_id")
            let keyPath = try field("private_key_file")
            guard seen.insert(bundleID).inserted else {
                throw problem("apps[\(index)]: \(bundleID) is configured twice (one promotional offer key per bundle ID)")
            }
            let keyURL = keyPath.hasPrefix("/") ? URL(fileURLWithPath: keyPath) : directory.appendingPathComponent(keyPath)
            guard let keyData = FileManager.default.contents(atPath: keyURL.path) else {
                throw problem("apps[\(index)] (\(bundleID)): private_key_file \(keyURL.path) cannot be read")
            }
            do throws(PromotionalOfferKeyError) {
                return try PromotionalOfferSigner(bundleID: bundleID, keyID: keyID, privateKeyPEM: String(decoding: keyData, as: UTF8.self))
            } catch {
                switch error.code {
                case .invalidPrivateKey:
                    throw problem("apps[\(index)] (\(bundleID)): private_key_file \(keyURL.path) is not an In-App Purchase key (\(error.code)): a .p8 file of App Store Connect, PKCS#8 on P-256, is expected")
                case .invalidKeyID:
                    throw problem("apps[\(index)] (\(bundleID)): key_id \(keyID.debugDescription) is not a key ID (\(error.code)): \(error.message)")
                default:
                    throw problem("apps[\(index)]: bundle_id \(bundleID.debugDescription) cannot be signed (\(error.code)): \(error.message)")
                }
            }
        }
    }
}
