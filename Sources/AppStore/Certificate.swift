import COpenSSL

/// One parsed X.509 certificate: owns OpenSSL's `X509` and frees it when released.
///
/// Immutable once made; OpenSSL allows concurrent read-only use of an `X509` (it caches
/// decoded extensions under its own lock), hence `@unchecked Sendable`.
final class Certificate: @unchecked Sendable {
    /// The exact DER bytes it was parsed from.
    let der: [UInt8]
    /// Validity window in whole seconds since the epoch.
    let notBefore: Int64
    let notAfter: Int64
    private let x509: OpaquePointer
    /// The public key when it is on P-256: borrowed from `x509`, so it lives as long as it.
    private let p256Key: OpaquePointer?

    /// Apple's receipt-signing mark, on the leaf.
    static let receiptSigningOID = "1.2.840.113635.100.6.11.1"
    /// Apple's Worldwide Developer Relations mark, on the intermediate.
    static let wwdrOID = "1.2.840.113635.100.6.2.1"

    /// Nil unless `der` is exactly one DER certificate with a readable validity window.
    init?(der: [UInt8]) {
        guard let x509 = der.withUnsafeBufferPointer({ ledger_x509_parse_der($0.baseAddress, $0.count) }) else { return nil }
        var notBefore: Int64 = 0
        var notAfter: Int64 = 0
        guard ledger_x509_validity(x509, &notBefore, &notAfter) == 1 else {
            X509_free(x509)
            return nil
        }
        self.der = der
        self.x509 = x509
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.p256Key = ledger_x509_p256_key(x509)
    }

    deinit { X509_free(x509) }

    /// Lends the `X509` for the duration of `body` only.
    func withUnsafeX509<R, E: Error>(_ body: (OpaquePointer) throws(E) -> R) throws(E) -> R {
        try body(x509)
    }

    /// Whether the window contains `milliseconds` (since the epoch), as OpenSSL decides it
    /// at the enclosing whole second: notBefore ≤ t < notAfter. The chain cache must judge
    /// exactly as `X509_verify_cert` did, so this mirrors it rather than RFC 5280's
    /// inclusive notAfter (they differ only at that one second).
    func isValid(atMilliseconds milliseconds: Int64) -> Bool {
        Self.window(notBefore, notAfter, contains: milliseconds)
    }

    static func window(_ notBefore: Int64, _ notAfter: Int64, contains milliseconds: Int64) -> Bool {
        let second = milliseconds.dividedRoundingDown(by: 1000)
        return notBefore <= second && second < notAfter
    }

    func hasExtension(_ dottedOID: String) -> Bool {
        ledger_x509_has_extension(x509, dottedOID) == 1
    }

    /// Whether the certificate names itself as issuer and its signature verifies with its own key.
    var isSelfSigned: Bool { ledger_x509_is_self_signed(x509) == 1 }

    var hasP256Key: Bool { p256Key != nil }

    /// A verifier with precomputed multiples of this certificate's key; nil when the key
    /// is not P-256.
    func makeFastVerifier() -> P256FastVerifier? {
        guard let p256Key else { return nil }
        return P256FastVerifier(key: p256Key)
    }

    /// ES256 over `message` with this certificate's key; false when the key is not P-256.
    func verifyES256(message: UnsafeBufferPointer<UInt8>, signature: [UInt8]) -> Bool {
        guard let p256Key, signature.count == 64 else { return false }
        return signature.withUnsafeBufferPointer { sig in
            ledger_es256_verify(p256Key, message.baseAddress, message.count, sig.baseAddress) == 1
        }
    }
}

extension Int64 {
    /// Floor division (the epoch second that contains a millisecond instant).
    func dividedRoundingDown(by divisor: Int64) -> Int64 {
        let (q, r) = quotientAndRemainder(dividingBy: divisor)
        return r < 0 ? q - 1 : q
    }
}
