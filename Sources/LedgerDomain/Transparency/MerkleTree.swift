import Crypto

/// The Merkle tree over the log (docs/audit.md), hashed as RFC 9162 §2.1 says: the leaf of the
/// event at position p is leaf p − 1, `SHA-256(0x00 ‖ hash)` where `hash` is the event's
/// chain hash (which covers its canonical bytes and, through `prev_hash`, everything
/// before it); an inner node is `SHA-256(0x01 ‖ left ‖ right)`.
///
/// The tree of size n is RFC 9162's MTH(D[n]). Every hash this type needs is a *perfect*
/// subtree: the 2^level leaves from `index · 2^level`, which never changes once complete.
/// The projector stores them as the log grows; roots and proofs for any size are made of
/// O(log n) of them, which `nodes(…)` lists so that a reader fetches them in one query.
public enum MerkleTree {
    /// A perfect subtree: leaves `index · 2^level` to `(index + 1) · 2^level − 1`.
    public struct Node: Hashable, Sendable {
        public var level: Int
        public var index: Int64
        public init(level: Int, index: Int64) {
            self.level = level
            self.index = index
        }
    }

    public enum ProofError: Error, Equatable, CustomStringConvertible {
        /// A size or leaf outside what the tree holds.
        case outOfRange(String)
        /// A node the source does not have.
        case missingNode(Node)
        public var description: String {
            switch self {
            case .outOfRange(let what): return what
            case .missingNode(let node): return "the tree has no node at level \(node.level), index \(node.index)"
            }
        }
    }

    public static func leafHash(_ chainHash: [UInt8]) -> [UInt8] {
        var hasher = SHA256Hasher()
        return leafHash(chainHash, using: &hasher)
    }

    public static func nodeHash(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] {
        var hasher = SHA256Hasher()
        return nodeHash(left, right, using: &hasher)
    }

    /// RFC 9162's leaf hash, SHA-256(0x00 ‖ data), on a hasher reused from one hash to the
    /// next (a fold hashes two nodes per event).
    public static func leafHash(_ chainHash: [UInt8], using hasher: inout SHA256Hasher) -> [UInt8] {
        chainHash.withUnsafeBytes { leafHash($0, using: &hasher) }
    }

    /// The leaf hash of bytes lent without an array (an event's chain hash, as a fold reads it).
    public static func leafHash(_ chainHash: UnsafeRawBufferPointer, using hasher: inout SHA256Hasher) -> [UInt8] {
        var prefix: UInt8 = 0x00
        withUnsafeBytes(of: &prefix) { hasher.update($0) }
        hasher.update(chainHash)
        return hasher.digestAndRestart()
    }

    /// RFC 9162's node hash, SHA-256(0x01 ‖ left ‖ right), on a reused hasher.
    public static func nodeHash(_ left: [UInt8], _ right: [UInt8], using hasher: inout SHA256Hasher) -> [UInt8] {
        var prefix: UInt8 = 0x01
        withUnsafeBytes(of: &prefix) { hasher.update($0) }
        hasher.update(left)
        hasher.update(right)
        return hasher.digestAndRestart()
    }

    /// MTH({}) = SHA-256 of nothing.
    public static let emptyRoot: [UInt8] = SHA256.hash([UInt8]())

    /// Where perfect subtree hashes come from.
    public typealias Source = (Node) throws -> [UInt8]

    // MARK: Roots and proofs from perfect subtrees

    /// MTH(D[size]).
    public static func root(size: Int64, _ node: Source) throws -> [UInt8] {
        guard size >= 0 else { throw ProofError.outOfRange("a tree size is not negative") }
        return size == 0 ? emptyRoot : try range(0, size, node)
    }

    /// The audit path of leaf `leaf` in the tree of `size` (RFC 9162 §2.1.3.1), nearest
    /// the leaf first.
    public static func inclusionProof(leaf: Int64, size: Int64, _ node: Source) throws -> [[UInt8]] {
        guard size > 0, leaf >= 0, leaf < size else { throw ProofError.outOfRange("leaf \(leaf) is not in a tree of size \(size)") }
        return try path(leaf, 0, size, node)
    }

    /// The consistency proof from the tree of `from` leaves to the tree of `to` leaves
    /// (RFC 9162 §2.1.4.1); empty when `from` is 0 or equals `to`.
    public static func consistencyProof(from: Int64, to: Int64, _ node: Source) throws -> [[UInt8]] {
        guard from >= 0, from <= to else { throw ProofError.outOfRange("a tree of size \(from) cannot grow into one of size \(to)") }
        guard from > 0, from < to else { return [] }
        return try subproof(from, 0, to, true, node)
    }

    /// The perfect subtrees `body` reads, without their hashes: what to fetch first.
    public static func nodes(_ body: (Source) throws -> Void) rethrows -> Set<Node> {
        var needed = Set<Node>()
        try body { node in
            needed.insert(node)
            return emptyRoot
        }
        return needed
    }

    /// MTH(D[start..<end]) for a range that starts at a multiple of the largest power of
    /// two below its length, as every range of RFC 9162's recursion does: a perfect
    /// subtree, or the perfect subtree of that power of two and the rest.
    static func range(_ start: Int64, _ end: Int64, _ node: Source) throws -> [UInt8] {
        let n = end - start
        if n & (n - 1) == 0 {
            let level = n.trailingZeroBitCount
            return try node(Node(level: level, index: start >> level))
        }
        let k = largestPowerOfTwo(below: n)
        return nodeHash(try range(start, start + k, node), try range(start + k, end, node))
    }

    private static func path(_ m: Int64, _ start: Int64, _ n: Int64, _ node: Source) throws -> [[UInt8]] {
        guard n > 1 else { return [] }
        let k = largestPowerOfTwo(below: n)
        if m < k { return try path(m, start, k, node) + [try range(start + k, start + n, node)] }
        return try path(m - k, start + k, n - k, node) + [try range(start, start + k, node)]
    }

    private static func subproof(_ m: Int64, _ start: Int64, _ n: Int64, _ complete: Bool, _ node: Source) throws -> [[UInt8]] {
        if m == n { return complete ? [] : [try range(start, start + n, node)] }
        let k = largestPowerOfTwo(below: n)
        if m <= k { return try subproof(m, start, k, complete, node) + [try range(start + k, start + n, node)] }
        return try subproof(m - k, start + k, n - k, false, node) + [try range(start, start + k, node)]
    }

    /// The largest power of two strictly below `n` (n > 1).
    static func largestPowerOfTwo(below n: Int64) -> Int64 {
        Int64(1) << (63 - (n - 1).leadingZeroBitCount)
    }

    // MARK: Verification (RFC 9162 §2.1.3.2 and §2.1.4.2)

    /// Whether `proof` proves that `leafHash` is leaf `leaf` of the tree of `size` whose
    /// root is `root`.
    public static func verifyInclusion(leafHash: [UInt8], leaf: Int64, size: Int64, proof: [[UInt8]], root: [UInt8]) -> Bool {
        guard leaf >= 0, leaf < size else { return false }
        var r = leafHash
        return walk(leaf, size - 1, proof[...], left: { r = nodeHash($0, r) }, right: { r = nodeHash(r, $0) }) && r == root
    }

    /// Whether `proof` proves that the tree of `from` leaves with root `fromRoot` is the
    /// beginning of the tree of `to` leaves with root `toRoot`.
    public static func verifyConsistency(from: Int64, to: Int64, fromRoot: [UInt8], toRoot: [UInt8], proof: [[UInt8]]) -> Bool {
        guard from >= 0, from <= to else { return false }
        if from == to { return proof.isEmpty && fromRoot == toRoot }
        if from == 0 { return proof.isEmpty }
        var path = proof[...]
        // A first tree that is a perfect subtree of the second is its own first node.
        if from & (from - 1) == 0 { path = [fromRoot] + path }
        guard let first = path.first else { return false }
        var fn = from - 1, sn = to - 1
        while fn & 1 == 1 {
            fn >>= 1
            sn >>= 1
        }
        var fr = first, sr = first
        return walk(fn, sn, path.dropFirst(), left: { fr = nodeHash($0, fr); sr = nodeHash($0, sr) }, right: { sr = nodeHash(sr, $0) })
            && fr == fromRoot && sr == toRoot
    }

    /// The walk both verifications share: for each element of `path`, whether it is the
    /// left sibling (`left`) or the right one (`right`) of what was hashed so far, by the
    /// bits of `fn` and `sn`; true when the path ends exactly at the root (sn reaches 0).
    private static func walk(_ fn: Int64, _ sn: Int64, _ path: ArraySlice<[UInt8]>,
                             left: ([UInt8]) -> Void, right: ([UInt8]) -> Void) -> Bool {
        var fn = fn, sn = sn
        for c in path {
            guard sn != 0 else { return false }
            if fn & 1 == 1 || fn == sn {
                left(c)
                while fn & 1 == 0 && fn != 0 {
                    fn >>= 1
                    sn >>= 1
                }
            } else {
                right(c)
            }
            fn >>= 1
            sn >>= 1
        }
        return sn == 0
    }
}
