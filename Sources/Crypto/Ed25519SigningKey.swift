import COpenSSL

/// An Ed25519 private key (RFC 8032) made or read by OpenSSL: the key that signs the log's
/// checkpoints. Owns the `EVP_PKEY` and frees it in deinit; immutable once made, and
/// OpenSSL signs with a shared key from several threads, hence `@unchecked Sendable`.
public final class Ed25519SigningKey: @unchecked Sendable {
    private let key: OpaquePointer
    /// The 32 raw bytes of the public key.
    public let publicKey: [UInt8]

    /// A new random key.
    public init() {
        guard let key = ledger_ed25519_generate() else { fatalError("OpenSSL could not make an Ed25519 key") }
        self.key = key
        publicKey = Self.publicRaw(key)
    }

    /// The key of a PEM `PRIVATE KEY` block (PKCS #8, as `openssl genpkey -algorithm
    /// ed25519` writes it); nil when the text holds anything else.
    public init?(pem: String) {
        guard let blocks = PEM.blocks("PRIVATE KEY", in: pem), blocks.count == 1,
              let key = blocks[0].withUnsafeBufferPointer({ ledger_pkey_from_private_der($0.baseAddress, $0.count) }) else { return nil }
        guard ledger_pkey_is_ed25519(key) == 1 else {
            EVP_PKEY_free(key)
            return nil
        }
        self.key = key
        publicKey = Self.publicRaw(key)
    }

    deinit { EVP_PKEY_free(key) }

    /// The private key as a PEM `PRIVATE KEY` block: keep it secret.
    public var privateKeyPEM: String {
        var out = [UInt8](repeating: 0, count: 256)
        let length = out.withUnsafeMutableBufferPointer { ledger_pkey_private_der(key, $0.baseAddress, $0.count) }
        precondition(length > 0, "OpenSSL could not encode the key")
        return PEM.encode(Array(out.prefix(length)), label: "PRIVATE KEY")
    }

    /// The public key as a PEM `PUBLIC KEY` block, which `openssl pkeyutl -verify -pubin`
    /// reads.
    public var publicKeyPEM: String { Ed25519.publicKeyPEM(publicKey) }

    /// The signature of `message` (64 bytes).
    public func sign(_ message: [UInt8]) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: 64)
        let ok = message.withUnsafeBufferPointer { m in
            signature.withUnsafeMutableBufferPointer { ledger_ed25519_sign(key, m.baseAddress, m.count, $0.baseAddress) }
        }
        precondition(ok == 1, "OpenSSL could not sign with an Ed25519 key")
        return signature
    }

    private static func publicRaw(_ key: OpaquePointer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let ok = out.withUnsafeMutableBufferPointer { ledger_ed25519_public_raw(key, $0.baseAddress) }
        precondition(ok == 1, "OpenSSL could not read an Ed25519 public key")
        return out
    }
}

/// Ed25519 verification and the public key's encodings.
public enum Ed25519 {
    /// The DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410): the 32 raw bytes follow.
    static let subjectPublicKeyInfoPrefix: [UInt8] = [0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]

    /// Whether `signature` is a valid signature of `message` by `publicKey` (32 raw bytes).
    public static func verify(publicKey: [UInt8], message: [UInt8], signature: [UInt8]) -> Bool {
        guard publicKey.count == 32, signature.count == 64 else { return false }
        return publicKey.withUnsafeBufferPointer { k in
            message.withUnsafeBufferPointer { m in
                signature.withUnsafeBufferPointer { ledger_ed25519_verify(k.baseAddress, m.baseAddress, m.count, $0.baseAddress) == 1 }
            }
        }
    }

    /// The raw public key as a PEM `PUBLIC KEY` block.
    public static func publicKeyPEM(_ publicKey: [UInt8]) -> String {
        PEM.encode(subjectPublicKeyInfoPrefix + publicKey, label: "PUBLIC KEY")
    }

    /// The raw public key of a PEM `PUBLIC KEY` block holding an Ed25519 key.
    public static func publicKey(pem: String) -> [UInt8]? {
        guard let blocks = PEM.blocks("PUBLIC KEY", in: pem), blocks.count == 1, blocks[0].count == 44,
              Array(blocks[0].prefix(12)) == subjectPublicKeyInfoPrefix else { return nil }
        return Array(blocks[0].suffix(32))
    }
}
