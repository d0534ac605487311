import COpenSSL

/// SHA-256 over OpenSSL's EVP interface.
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func hash<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var out = [UInt8](repeating: 0, count: 32)
        let ok: Int32? = bytes.withContiguousStorageIfAvailable { buffer in
            out.withUnsafeMutableBufferPointer { ledger_sha256(buffer.baseAddress, buffer.count, $0.baseAddress!) }
        }
        if let ok {
            precondition(ok == 1, "SHA-256 failed inside OpenSSL")
            return out
        }
        return hash(Array(bytes))
    }
}

/// An incremental SHA-256, for hashing a value from several pieces without joining them.
public struct SHA256Hasher: ~Copyable {
    private let context: OpaquePointer

    public init() {
        guard let context = ledger_sha256_new() else { fatalError("OpenSSL could not allocate a digest context") }
        self.context = context
    }

    deinit { ledger_sha256_free(context) }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        precondition(ledger_sha256_update(context, bytes.baseAddress, bytes.count) == 1, "SHA-256 update failed")
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    public mutating func update(_ string: String) {
        var string = string
        string.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// Ends the hash and starts the hasher over for the next one, with no allocation of a
    /// context: for many small hashes in a row (a Merkle tree's nodes).
    public mutating func digestAndRestart() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let ok = out.withUnsafeMutableBufferPointer { ledger_sha256_final(context, $0.baseAddress!) }
        precondition(ok == 1 && ledger_sha256_restart(context) == 1, "SHA-256 final failed")
        return out
    }

    /// Ends the hash; the hasher cannot be used after this.
    public consuming func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let ok = out.withUnsafeMutableBufferPointer { ledger_sha256_final(context, $0.baseAddress!) }
        precondition(ok == 1, "SHA-256 final failed")
        return out
    }
}
