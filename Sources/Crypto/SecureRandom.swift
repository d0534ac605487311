import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's DRBG.
public enum SecureRandom {
    public static func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBufferPointer { ledger_random_bytes($0.baseAddress!, count) }
        precondition(ok == 1, "OpenSSL's random generator failed")
        return out
    }
}

/// Comparison of secrets whose duration does not depend on where they differ.
public func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in ledger_memeq(pa.baseAddress, pb.baseAddress, a.count) == 1 } }
}
