import COpenSSL

/// An EC private key made by OpenSSL, for signing App Store payloads outside Apple: the
/// development authority of `ledger dev` and the tests. Owns the `EVP_PKEY` and frees it
/// in deinit. Immutable once made, and OpenSSL signs with a shared key from several
/// threads, hence `@unchecked Sendable`.
public final class AppStoreSigningKey: @unchecked Sendable {
    private let key: OpaquePointer
    /// `P-256` (ES256) or another group OpenSSL knows, e.g. `P-384` to test refusals.
    public let curve: String

    /// A new key on `curve`.
    public init(curve: String = "P-256") {
        guard let key = ledger_ec_key_generate(curve) else { fatalError("OpenSSL could not make a \(curve) key") }
        self.key = key
        self.curve = curve
    }

    /// The P-256 key in PKCS#8 DER, as `pkcs8DER` wrote it; nil when it is not one.
    public init?(pkcs8DER der: [UInt8]) {
        guard let key = der.withUnsafeBufferPointer({ ledger_pkey_from_private_der($0.baseAddress, $0.count) }) else { return nil }
        guard ledger_pkey_is_p256(key) == 1 else {
            EVP_PKEY_free(key)
            return nil
        }
        self.key = key
        self.curve = "P-256"
    }

    deinit { EVP_PKEY_free(key) }

    /// The private key as PKCS#8 DER (a PEM `PRIVATE KEY` block's contents): keep it secret.
    public var pkcs8DER: [UInt8] {
        var out = [UInt8](repeating: 0, count: 512)
        let length = out.withUnsafeMutableBufferPointer { ledger_pkey_private_der(key, $0.baseAddress, $0.count) }
        precondition(length > 0, "OpenSSL could not encode the key")
        return Array(out.prefix(length))
    }

    /// Lends the `EVP_PKEY` for the duration of `body` only.
    package func withUnsafeKey<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R { try body(key) }

    /// ECDSA with SHA-256 over `message`, as raw fixed-width r‖s (64 bytes on P-256: ES256).
    public func sign(_ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 132)
        let length = message.withUnsafeBufferPointer { m in
            out.withUnsafeMutableBufferPointer { ledger_ecdsa_sign_raw(key, m.baseAddress, m.count, $0.baseAddress, $0.count) }
        }
        precondition(length > 0, "OpenSSL could not sign")
        return Array(out.prefix(length))
    }
}
