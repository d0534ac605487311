import COpenSSL

/// ECDSA P-256 with SHA-256 checked by OpenSSL's own one-shot verification
/// (`EVP_DigestVerify`), on a public key rebuilt from its SubjectPublicKeyInfo DER: none
/// of the project's signing or verifying code is on this path, so a test can hold the
/// production signatures to it.
public enum ReferenceECDSA {
    /// The SubjectPublicKeyInfo DER of the public half of a PKCS#8 private key; nil when
    /// the bytes are not one.
    public static func publicKey(ofPKCS8 der: [UInt8]) -> [UInt8]? {
        der.withUnsafeBufferPointer { buffer -> [UInt8]? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let key = d2i_AutoPrivateKey(nil, &cursor, buffer.count) else { return nil }
            defer { EVP_PKEY_free(key) }
            let length = i2d_PUBKEY(key, nil)
            guard length > 0 else { return nil }
            var out = [UInt8](repeating: 0, count: Int(length))
            let written = out.withUnsafeMutableBufferPointer { o -> Int32 in
                var p: UnsafeMutablePointer<UInt8>? = o.baseAddress
                return i2d_PUBKEY(key, &p)
            }
            return written == length ? out : nil
        }
    }

    /// Whether `signature` (DER `ECDSA-Sig-Value`) is a valid ECDSA signature with SHA-256 of
    /// `message` by the key of `publicKey` (SubjectPublicKeyInfo DER).
    public static func verify(derSignature signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        publicKey.withUnsafeBufferPointer { spki -> Bool in
            var cursor: UnsafePointer<UInt8>? = spki.baseAddress
            guard let key = d2i_PUBKEY(nil, &cursor, spki.count) else { return false }
            defer { EVP_PKEY_free(key) }
            guard let context = EVP_MD_CTX_new() else { return false }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
            let result = signature.withUnsafeBufferPointer { s in
                message.withUnsafeBufferPointer { m in EVP_DigestVerify(context, s.baseAddress, s.count, m.baseAddress, m.count) }
            }
            ERR_clear_error()
            return result == 1
        }
    }

    /// The two integers of a DER `ECDSA-Sig-Value` when it is one, minimally encoded (a
    /// leading zero only before a high bit, as DER demands) and nothing after it; else nil.
    public static func integers(ofDER der: [UInt8]) -> (r: [UInt8], s: [UInt8])? {
        guard der.count >= 8, der[0] == 0x30, Int(der[1]) == der.count - 2, der[1] < 0x80 else { return nil }
        var at = 2
        func integer() -> [UInt8]? {
            guard at + 2 <= der.count, der[at] == 0x02 else { return nil }
            let length = Int(der[at + 1])
            guard length >= 1, length <= 33, at + 2 + length <= der.count else { return nil }
            let value = Array(der[(at + 2)..<(at + 2 + length)])
            at += 2 + length
            if value[0] & 0x80 != 0 { return nil }  // negative
            if value.count > 1, value[0] == 0, value[1] & 0x80 == 0 { return nil }  // not minimal
            return value
        }
        guard let r = integer(), let s = integer(), at == der.count else { return nil }
        return (r, s)
    }
}
