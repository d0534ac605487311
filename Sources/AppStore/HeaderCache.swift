#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// JWS headers already decoded: exact header text → the DER certificates of its `x5c`.
///
/// Apple signs every payload of a period under one header (the same `alg` and `x5c`; a
/// notification and the two JWS inside it share it), and decoding it (base64url, JSON,
/// base64 certificates) costs more than the rest of a token but its signature. This
/// remembers what a pure function of the text gave, only for headers that decoded; it
/// decides nothing: the chain is still looked up and checked at each token's
/// `signedDate`, and the signature still covers the header text.
final class HeaderCache: Sendable {
    private let entries = Mutex<[(text: [UInt8], certificates: [[UInt8]])]>([])
    let capacity: Int

    static let shared = HeaderCache(capacity: 16)

    init(capacity: Int) { self.capacity = capacity }

    func certificates(forHeader text: UnsafeBufferPointer<UInt8>) -> [[UInt8]]? {
        entries.withLock { entries in
            entries.first { entry in
                entry.text.count == text.count
                    && entry.text.withUnsafeBytes { memcmp($0.baseAddress!, text.baseAddress!, text.count) == 0 }
            }?.certificates
        }
    }

    func insert(header text: UnsafeBufferPointer<UInt8>, certificates: [[UInt8]]) {
        guard !text.isEmpty else { return }
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeFirst() }
            entries.append((Array(text), certificates))
        }
    }
}
