import COpenSSL

extension AppStoreSigningKey {
    /// Whether `signature` (raw r‖s, 64 bytes) is this key's ES256 signature of `message`.
    /// Only the public half is used: this is what Apple does with the In-App Purchase key it
    /// holds, and what the local stand-in for the App Store Server API does with a token.
    public func verifies(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        guard curve == "P-256", signature.count == 64 else { return false }
        return withUnsafeKey { key in
            message.withUnsafeBufferPointer { m in
                signature.withUnsafeBufferPointer { ledger_es256_verify(key, m.baseAddress, m.count, $0.baseAddress) == 1 }
            }
        }
    }
}
