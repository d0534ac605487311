import COpenSSL

/// HMAC-SHA256 over OpenSSL.
public enum HMAC {
    public static func sha256(key: [UInt8], data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let ok = key.withUnsafeBytes { k in
            data.withUnsafeBytes { d in
                out.withUnsafeMutableBufferPointer { ledger_hmac_sha256(k.baseAddress, k.count, d.baseAddress, d.count, $0.baseAddress!) }
            }
        }
        precondition(ok == 1, "HMAC-SHA256 failed inside OpenSSL")
        return out
    }
}
