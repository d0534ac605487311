import Synchronization

/// A chain that verified: the leaf whose key checks token signatures, and the validity
/// window of every certificate the verification used (leaf, intermediate, root), which
/// each token's `signedDate` must fall into before the chain vouches for it.
final class VerifiedChain: Sendable {
    let leaf: Certificate
    let windows: [Window]
    private let fastPath = Mutex(FastPath())

    /// Signatures checked the ordinary way before the leaf's key gets precomputed
    /// multiples: the precomputation costs about as much as 500 verifications, so a key
    /// seen a few times (tests, a leaf Apple is retiring) never pays for it.
    static let fastPathThreshold = 64

    init(leaf: Certificate, windows: [Window]) {
        self.leaf = leaf
        self.windows = windows
    }

    struct Window: Sendable {
        /// "leaf", "intermediate", "root", "self-signed": for the error message.
        let role: String
        let notBefore: Int64
        let notAfter: Int64
    }

    private struct FastPath {
        var uses = 0
        var building = false
        var verifier: P256FastVerifier?
    }

    /// Nil when every certificate is valid at `milliseconds`, else the first that is not.
    func firstInvalidWindow(atMilliseconds milliseconds: Int64) -> Window? {
        windows.first { !Certificate.window($0.notBefore, $0.notAfter, contains: milliseconds) }
    }

    /// ES256 over `message` with the leaf's key: through OpenSSL's EVP interface until
    /// the key has been used `fastPathThreshold` times, then with precomputed multiples.
    func verifySignature(message: UnsafeBufferPointer<UInt8>, signature: [UInt8]) -> Bool {
        let (fast, shouldBuild) = fastPath.withLock { state -> (P256FastVerifier?, Bool) in
            if let verifier = state.verifier { return (verifier, false) }
            state.uses += 1
            guard state.uses >= Self.fastPathThreshold, !state.building else { return (nil, false) }
            state.building = true
            return (nil, true)
        }
        if let fast { return fast.verify(message: message, signature: signature) }
        let valid = leaf.verifyES256(message: message, signature: signature)
        if shouldBuild {
            // Built only on a signature OpenSSL's own ECDSA accepted, and kept only if it
            // accepts it too: a last guard against a table of the wrong point.
            let built = valid ? leaf.makeFastVerifier() : nil
            let agrees = built?.verify(message: message, signature: signature) == true
            fastPath.withLock { state in
                state.building = false
                if agrees { state.verifier = built }
            }
        }
        return valid
    }

    /// Whether precomputed multiples are in use (tests).
    var usesFastPath: Bool { fastPath.withLock { $0.verifier != nil } }
}
