import AppStore
import LedgerJSON

/// Reading what a JWS says without verifying it: the stand-in files what it was given by
/// its fields; verifying is the client's job.
enum AppStoreVerifierPayload {
    static func payload(of jws: String) -> JSONValue? { AppStoreVerifier.unverifiedPayload(of: jws) }
    static func signedDate(of jws: String) -> Int64? { payload(of: jws)?["signedDate"]?.int64Value }
}
