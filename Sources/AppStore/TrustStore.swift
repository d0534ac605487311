import COpenSSL

/// The roots a policy trusts, as one OpenSSL `X509_STORE` (owned and freed here), and the
/// chains already verified against them.
///
/// Immutable once made; `X509_verify_cert` may share a store between threads (it locks
/// its lookups), hence `@unchecked Sendable`.
final class TrustStore: @unchecked Sendable {
    /// Apple Root CA - G3 then the extra roots that parsed.
    let roots: [Certificate]
    /// The extra roots only (never G3): the certificates an Xcode JWS may consist of.
    let extraRoots: [Certificate]
    /// Chains that verified against these roots; shared by every verifier of the policy.
    let chains = ChainCache(capacity: 64)
    private let store: OpaquePointer

    /// Apple Root CA - G3, parsed once per process.
    static let appleRootCAG3: Certificate = {
        guard let root = Certificate(der: AppleRootCAG3.der) else { fatalError("the embedded Apple Root CA - G3 does not parse") }
        return root
    }()

    init(extraRoots: [[UInt8]]) {
        guard let store = X509_STORE_new() else { fatalError("OpenSSL could not allocate an X509_STORE") }
        self.store = store
        let extra = extraRoots.compactMap { Certificate(der: $0) }
        self.extraRoots = extra
        self.roots = [Self.appleRootCAG3] + extra
        for root in roots {
            // The store takes its own reference to each certificate; a duplicate is refused
            // by OpenSSL and changes nothing.
            _ = root.withUnsafeX509 { X509_STORE_add_cert(store, $0) }
        }
        ERR_clear_error()
    }

    deinit { X509_STORE_free(store) }

    /// The extra root whose DER is exactly `der`, if any.
    func extraRoot(matching der: [UInt8]) -> Certificate? {
        extraRoots.first { $0.der == der }
    }

    /// What `X509_verify_cert` says of leaf ← intermediate ← one of the roots at `second`.
    enum ChainVerdict {
        /// Valid, through exactly these three certificates; the root's window is returned
        /// for the chain cache.
        case valid(rootNotBefore: Int64, rootNotAfter: Int64)
        /// A certificate is outside its validity window at that second.
        case notValidAtTime(String)
        /// Any other failure, with OpenSSL's reason.
        case untrusted(String)
    }

    func verify(leaf: Certificate, intermediate: Certificate, atSecond second: Int64) -> ChainVerdict {
        var error: Int32 = 0
        var rootNotBefore: Int64 = 0
        var rootNotAfter: Int64 = 0
        let ok = leaf.withUnsafeX509 { leafX509 in
            intermediate.withUnsafeX509 { intermediateX509 in
                ledger_x509_verify_chain(store, leafX509, intermediateX509, second, &error, &rootNotBefore, &rootNotAfter)
            }
        }
        if ok == 1 { return .valid(rootNotBefore: rootNotBefore, rootNotAfter: rootNotAfter) }
        if error == -1 { return .untrusted("the chain does not go leaf, intermediate, root") }
        let reason = String(cString: X509_verify_cert_error_string(Int(error)))
        switch error {
        case X509_V_ERR_CERT_NOT_YET_VALID, X509_V_ERR_CERT_HAS_EXPIRED:
            return .notValidAtTime(reason)
        default:
            return .untrusted(reason)
        }
    }
}
