import COpenSSL

/// ES256 with precomputed multiples of one P-256 key (owns the C verifier and frees it in
/// deinit): about half the cost of `Certificate.verifyES256`, after a one-time
/// precomputation of tens of milliseconds. Worth it only for a key that signs many
/// tokens, which is why `VerifiedChain` makes one only once its leaf is busy.
///
/// Immutable once made; verification only reads it, hence `@unchecked Sendable`.
final class P256FastVerifier: @unchecked Sendable {
    private let verifier: OpaquePointer

    /// Nil unless `key` (an `EVP_PKEY`, only read here) is on P-256.
    init?(key: OpaquePointer) {
        guard let verifier = ledger_p256_fast_verifier_new(key) else { return nil }
        self.verifier = verifier
    }

    deinit { ledger_p256_fast_verifier_free(verifier) }

    func verify(message: UnsafeBufferPointer<UInt8>, signature: [UInt8]) -> Bool {
        guard signature.count == 64 else { return false }
        return signature.withUnsafeBufferPointer { sig in
            ledger_p256_fast_verify(verifier, message.baseAddress, message.count, sig.baseAddress) == 1
        }
    }
}
