import AppStore
import Crypto
import LedgerJSON

/// Reading what a JWS says without verifying it: the stand-in files what it was given by
/// its fields; verifying is the client's job.
enum AppStoreVerifierPayload {
    static func payload(of jws: String) -> JSONValue? { AppStoreVerifier.unverifiedPayload(of: jws) }
    static func signedDate(of jws: String) -> Int64? { payload(of: jws)?["signedDate"]?.int64Value }

    /// A notification's `data.signedTransactionInfo` as the signed text it carries.
    static func signedTransaction(in jws: String) -> String? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64URL.decode(String(parts[1])),
              let outer = try? JSONValue.parse(bytes) else { return nil }
        return outer["data"]?["signedTransactionInfo"]?.stringValue
    }
}
