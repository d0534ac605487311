#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Leaf-and-intermediate pairs that already verified against a policy's roots, so that a
/// token signed by a known chain costs one signature check rather than two more
/// certificate signatures and a chain build.
///
/// Keyed on the exact DER bytes of the certificates; what it remembers is the chain, never
/// a verdict on a token: each token still has its signature verified, and its own
/// `signedDate` checked against every certificate's window (`VerifiedChain`). Only chains
/// that verified are stored, so it holds the few certificates the roots' owners issued;
/// a short list compared byte for byte beats hashing kilobytes of DER per token, and at
/// `capacity` the oldest entry goes.
final class ChainCache: Sendable {
    private let entries = Mutex<[(key: Key, chain: VerifiedChain)]>([])
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    func chain(for key: Key) -> VerifiedChain? {
        entries.withLock { entries in entries.first { $0.key == key }?.chain }
    }

    func insert(_ chain: VerifiedChain, for key: Key) {
        entries.withLock { entries in
            guard !entries.contains(where: { $0.key == key }) else { return }
            if entries.count >= capacity { entries.removeFirst() }
            entries.append((key, chain))
        }
    }

    var count: Int { entries.withLock { $0.count } }

    /// The certificates of a chain, as the exact DER bytes of the token's `x5c`.
    struct Key: Equatable, Sendable {
        /// The leaf then the intermediate (empty for an Xcode JWS's single certificate).
        let leaf: [UInt8]
        let intermediate: [UInt8]

        static func == (a: Key, b: Key) -> Bool {
            sameBytes(a.leaf, b.leaf) && sameBytes(a.intermediate, b.intermediate)
        }
    }
}

/// Byte equality through memcmp (certificates are kilobytes).
func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in a.isEmpty || memcmp(pa.baseAddress!, pb.baseAddress!, a.count) == 0 } }
}
