import LedgerDomain
import Synchronization

/// The Merkle tree's upper nodes, kept in memory by a reading process: a perfect subtree
/// never changes once written (the tree is a function of the immutable log), and the
/// nodes near the root are in almost every proof, so each proof fetches only the few
/// nodes near its leaf. Only nodes at `minimumLevel` and above are kept, at most
/// `capacity` of them (then the cache starts again empty: nodes are cheap to fetch).
public final class MerkleNodeCache: Sendable {
    private let nodes = Mutex<[MerkleTree.Node: [UInt8]]>([:])
    public let minimumLevel: Int
    public let capacity: Int

    public init(minimumLevel: Int = 8, capacity: Int = 200_000) {
        self.minimumLevel = minimumLevel
        self.capacity = capacity
    }

    /// The hashes of those of `wanted` the cache holds.
    func lookup(_ wanted: Set<MerkleTree.Node>) -> [MerkleTree.Node: [UInt8]] {
        nodes.withLock { cached in
            var found: [MerkleTree.Node: [UInt8]] = [:]
            for node in wanted where node.level >= minimumLevel {
                if let hash = cached[node] { found[node] = hash }
            }
            return found
        }
    }

    /// Keeps those of `fetched` high enough in the tree.
    func store(_ fetched: [MerkleTree.Node: [UInt8]]) {
        let kept = fetched.filter { $0.key.level >= minimumLevel }
        guard !kept.isEmpty else { return }
        nodes.withLock { cached in
            if cached.count + kept.count > capacity { cached.removeAll(keepingCapacity: true) }
            cached.merge(kept) { old, _ in old }
        }
    }
}
