import COpenSSL

/// scrypt (RFC 7914), the memory-hard password KDF, through OpenSSL; and the stored form
/// of a password hash, `scrypt$LOGN$R$P$SALT$HASH` (salt and hash in base64url), which
/// carries its parameters so that they can rise without breaking older hashes.
public enum Scrypt {
    public struct Parameters: Sendable, Hashable {
        /// N = 2^logN.
        public var logN: Int
        public var r: Int
        public var p: Int
        public init(logN: Int, r: Int, p: Int) {
            self.logN = logN
            self.r = r
            self.p = p
        }
        /// 128 · r · N bytes of memory.
        var memory: UInt64 { 128 * UInt64(r) << UInt64(logN) }
    }

    /// N = 2^15, r = 8, p = 1: 32 MiB and about 0.1 s a login on this machine.
    public static let interactive = Parameters(logN: 15, r: 8, p: 1)

    /// The derived key; nil when OpenSSL refuses the parameters.
    public static func derive(password: [UInt8], salt: [UInt8], parameters: Parameters, length: Int = 32) -> [UInt8]? {
        guard (1...20).contains(parameters.logN), (1...16).contains(parameters.r), (1...4).contains(parameters.p) else { return nil }
        var key = [UInt8](repeating: 0, count: length)
        let ok = password.withUnsafeBufferPointer { pass in
            salt.withUnsafeBufferPointer { s in
                key.withUnsafeMutableBufferPointer { out in
                    pass.withMemoryRebound(to: CChar.self) { chars in
                        EVP_PBE_scrypt(chars.baseAddress, chars.count, s.baseAddress, s.count,
                                       UInt64(1) << UInt64(parameters.logN), UInt64(parameters.r), UInt64(parameters.p),
                                       parameters.memory + (1 << 20), out.baseAddress, out.count)
                    }
                }
            }
        }
        return ok == 1 ? key : nil
    }

    /// The stored form of `password`, with a fresh 16-byte salt.
    public static func hash(password: String, parameters: Parameters = interactive) -> String {
        let salt = SecureRandom.bytes(16)
        let key = derive(password: Array(password.utf8), salt: salt, parameters: parameters)!
        return "scrypt$\(parameters.logN)$\(parameters.r)$\(parameters.p)$\(Base64URL.encode(salt))$\(Base64URL.encode(key))"
    }

    /// Whether `password` is the one `stored` was made from; false for a malformed `stored`.
    public static func verify(password: String, stored: String) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "scrypt", let logN = Int(parts[1]), let r = Int(parts[2]), let p = Int(parts[3]),
              let salt = Base64URL.decode(String(parts[4])), let expected = Base64URL.decode(String(parts[5])), expected.count == 32,
              let key = derive(password: Array(password.utf8), salt: salt, parameters: Parameters(logN: logN, r: r, p: p)) else {
            return false
        }
        return constantTimeEquals(key, expected)
    }
}
