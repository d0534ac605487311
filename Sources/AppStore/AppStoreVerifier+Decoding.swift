import Crypto
import LedgerJSON

extension AppStoreVerifier {
    /// The payload of `jws` decoded **without verifying anything**, a notification's nested
    /// `signedTransactionInfo` and `signedRenewalInfo` replaced by their decoded payloads:
    /// for people debugging a refused JWS. Nil when the payload does not decode to JSON.
    public static func unverifiedPayload(of jws: String) -> JSONValue? {
        guard let payload = decodePayloadPart(jws) else { return nil }
        return replacingNested(in: payload) { key in
            guard case .string(let nested)? = payload["data"]?[key] else { return nil }
            return decodePayloadPart(nested)
        }
    }

    private static func decodePayloadPart(_ jws: String) -> JSONValue? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = StrictBase64.decode(String(parts[1]), .url) else { return nil }
        return try? JSONValue.parse(bytes, options: SignedPayloadVerifier.jsonOptions)
    }

    /// `payload` with `data.signedTransactionInfo` and `data.signedRenewalInfo` replaced by
    /// what `decoded` gives for each key (left as they are where it gives nil).
    static func replacingNested(in payload: JSONValue, _ decoded: (String) -> JSONValue?) -> JSONValue {
        guard case .object(var members) = payload, case .object(var data)? = members["data"] else { return payload }
        for key in ["signedTransactionInfo", "signedRenewalInfo"] where data[key] != nil {
            if let value = decoded(key) { data[key] = value }
        }
        members["data"] = .object(data)
        return .object(members)
    }
}
