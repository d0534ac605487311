import Crypto
import LedgerJSON

/// One token's bare ES256 check, repeated by `ledger bench appstore` to measure, in the
/// same run, what signature verification alone allows on the machine: through OpenSSL's
/// EVP interface (what every signature would cost without precomputed tables) and with
/// the leaf's precomputed multiples (what a busy chain costs). Not for verifying anything.
@_spi(Benchmark)
public struct SignatureCeiling: Sendable {
    private let leaf: Certificate
    private let fast: P256FastVerifier
    private let signingInput: [UInt8]
    private let signature: [UInt8]

    /// Nil unless `jws` has a parseable leaf certificate and a 64-byte signature.
    public init?(jws: String) {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let headerBytes = StrictBase64.decode(String(parts[0]), .url),
              let header = try? JSONValue.parse(headerBytes),
              let leafText = header["x5c"]?[0]?.stringValue,
              let leafDER = StrictBase64.decode(leafText, .standard),
              let leaf = Certificate(der: leafDER), leaf.hasP256Key,
              let signature = StrictBase64.decode(String(parts[2]), .url), signature.count == 64
        else { return nil }
        guard let fast = leaf.makeFastVerifier() else { return nil }
        self.leaf = leaf
        self.fast = fast
        self.signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
        self.signature = signature
    }

    /// SHA-256 of the signing input and one ECDSA verification through `EVP_PKEY_verify`.
    public func verifyOnceThroughEVP() -> Bool {
        signingInput.withUnsafeBufferPointer { leaf.verifyES256(message: $0, signature: signature) }
    }

    /// The same with the leaf's precomputed multiples.
    public func verifyOncePrecomputed() -> Bool {
        signingInput.withUnsafeBufferPointer { fast.verify(message: $0, signature: signature) }
    }
}
