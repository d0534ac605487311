import COpenSSL

extension AppStoreSigningKey {
    /// ECDSA with SHA-256 over `message`, as the DER `ECDSA-Sig-Value` (a SEQUENCE of the
    /// INTEGERs r and s, RFC 3279 §2.2.3): the form a promotional offer's signature takes
    /// ("Generating a signature for promotional offers" in Apple's StoreKit documentation),
    /// where a JWT takes the raw r‖s of `sign(_:)`. At most 72 bytes on P-256.
    public func signDER(_ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 160)
        let length = withUnsafeKey { key in
            message.withUnsafeBufferPointer { m in
                out.withUnsafeMutableBufferPointer { ledger_ecdsa_sign_der(key, m.baseAddress, m.count, $0.baseAddress, $0.count) }
            }
        }
        precondition(length > 0, "OpenSSL could not sign")
        return Array(out.prefix(length))
    }
}
