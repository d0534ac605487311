import Crypto
import LedgerDomain
import Postgres

/// Every read of the Merkle projection (`proj_merkle`): the tree's size, roots, inclusion
/// and consistency proofs, and the signed checkpoints. A proof reads the O(log n) perfect
/// subtrees it is made of in one statement, in the same snapshot as the tree's size.
public struct MerkleReadModel: Sendable {
    public let connections: PostgresPool
    /// The upper nodes a long-lived reader keeps (the API's); nil: every node is fetched.
    public let cache: MerkleNodeCache?

    public init(connections: PostgresPool, cache: MerkleNodeCache? = nil) {
        self.connections = connections
        self.cache = cache
    }

    /// Why a proof cannot be given.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        /// The projector has not created the tree yet.
        case notCreated
        /// The tree does not reach `size` yet (it holds `treeSize` events).
        case beyondTree(size: Int64, treeSize: Int64)
        /// A size or a position that no tree has (not positive, or a position past the size).
        case invalid(String)

        public var description: String {
            switch self {
            case .notCreated: return "the Merkle tree is not created yet: is the projector running?"
            case .beyondTree(let size, let treeSize): return "the tree holds \(treeSize) events, not \(size) yet"
            case .invalid(let what): return what
            }
        }
    }

    public struct Checkpoint: Sendable, Hashable {
        /// Its own position in the log.
        public var position: Int64
        public var checkpoint: LogCheckpoint
        public var keyID: String
        public var publicKey: [UInt8]
        public var signature: [UInt8]
    }

    public struct InclusionProof: Sendable, Hashable {
        public var position: Int64
        public var size: Int64
        public var root: [UInt8]
        /// Nearest the leaf first.
        public var path: [[UInt8]]
        /// The event at `position`, as its leaf covers it; nil when it is archived.
        public var event: LeafEvent?
    }

    /// What an auditor needs of an event to recompute its leaf: its chain hash from its
    /// `prev_hash` and canonical bytes (docs/audit.md), and what it is.
    public struct LeafEvent: Sendable, Hashable {
        public var type: String
        public var stream: String
        public var prevHash: [UInt8]
        public var hash: [UInt8]
        /// `event_canonical_bytes` of the stored row.
        public var canonical: [UInt8]
    }

    public struct ConsistencyProof: Sendable, Hashable {
        public var from: Int64
        public var to: Int64
        public var fromRoot: [UInt8]
        public var toRoot: [UInt8]
        public var path: [[UInt8]]
    }

    /// How many events the tree holds; nil before the projector created it.
    public func treeSize() throws -> Int64? {
        try connections.read { conn in try Self.size(on: conn) }
    }

    /// The proof that the event at `position` is in the tree of `n` events.
    public func inclusionProof(position: Int64, size n: Int64) throws -> InclusionProof {
        try Self.check(size: n)
        guard position >= 1, position <= n else {
            throw Refusal.invalid("position \(position) is not in a tree of \(n) events (positions 1 to \(n))")
        }
        let (nodes, event) = try read(size: n, try Self.inclusionNodes(position: position, size: n), event: position)
        return InclusionProof(position: position, size: n, root: try MerkleTree.root(size: n, nodes),
                              path: try MerkleTree.inclusionProof(leaf: position - 1, size: n, nodes), event: event)
    }

    /// The proof that the tree of `from` events is the beginning of the tree of `n`.
    public func consistencyProof(from: Int64, to n: Int64) throws -> ConsistencyProof {
        try Self.check(size: n)
        guard from >= 1, from <= n else { throw Refusal.invalid("from is 1 to the later size (\(n)), not \(from)") }
        let (nodes, _) = try read(size: n, MerkleTree.nodes { source in
            _ = try MerkleTree.consistencyProof(from: from, to: n, source)
            _ = try MerkleTree.root(size: from, source)
            _ = try MerkleTree.root(size: n, source)
        })
        return ConsistencyProof(from: from, to: n, fromRoot: try MerkleTree.root(size: from, nodes),
                                toRoot: try MerkleTree.root(size: n, nodes),
                                path: try MerkleTree.consistencyProof(from: from, to: n, nodes))
    }

    /// The root of the tree of `size` events.
    public func root(size: Int64) throws -> [UInt8] {
        try Self.check(size: size)
        return try MerkleTree.root(size: size, try read(size: size, MerkleTree.nodes { _ = try MerkleTree.root(size: size, $0) }).nodes)
    }

    /// The latest signed checkpoint; nil when there is none (or no tree yet).
    public func latestCheckpoint() throws -> Checkpoint? {
        try checkpoints("ORDER BY position DESC LIMIT 1", []).first
    }

    /// The checkpoint recorded at `position` of the log.
    public func checkpoint(at position: Int64) throws -> Checkpoint? {
        try checkpoints("WHERE position = $1", [position]).first
    }

    // MARK: Reading

    private func checkpoints(_ clause: String, _ parameters: [any PostgresBindable]) throws -> [Checkpoint] {
        try connections.read { conn in
            guard try Self.size(on: conn) != nil else { return [] }
            return try conn.query("""
                SELECT position, size, origin, root, head, time_us, key_id, public_key, signature FROM proj_merkle.checkpoints \(clause)
                """, parameters).rows.map { r in
                Checkpoint(position: try r.requireInt64(0),
                           checkpoint: LogCheckpoint(origin: try r.requireString(2), size: try r.requireInt64(1), root: try r.requireBytes(3),
                                                     head: try r.requireBytes(4),
                                                     time: Timestamp(microseconds: try r.requireInt64(5)) ?? .minimum),
                           keyID: try r.requireString(6), publicKey: try r.requireBytes(7), signature: try r.requireBytes(8))
            }
        }
    }

    /// A proof's one statement: three kinds of rows in one answer, in binary (no hex to
    /// print and parse): 0 the tree's size, 1 a node by its id (`MerkleProjection.id`, cut
    /// out of its block: the 255 and the shift by 8 are `MerkleProjection.blockWidth`, 256),
    /// 2 the event at $2 (none when $2 is null). Public for `ledger bench proofs`, whose baseline runs it through libpq.
    public static let proofStatement = """
        SELECT 0::int8, 0::int8, position, NULL::bytea, NULL::text, NULL::text, NULL::bytea, NULL::bytea
          FROM proj_merkle._checkpoint
        UNION ALL
        SELECT 1, 0, w.id, substring(b.hashes FROM ((w.id & 255) * 32 + 1)::int FOR 32), NULL, NULL, NULL, NULL
          FROM unnest($1::bigint[]) AS w (id)
          JOIN proj_merkle.blocks b ON b.id = (w.id >> 48 << 48) | ((w.id & 281474976710655) >> 8)
        UNION ALL
        SELECT 2, 0, e.position, e.hash, e.type, e.stream, e.prev_hash, event_canonical_bytes(e)
          FROM events e WHERE e.position = $2
        """

    /// The ids `proofStatement` fetches for the inclusion proof of `position` in the tree
    /// of `size`, with `cache` holding what it holds (the same nodes as the route fetches).
    public static func inclusionNodeIDs(position: Int64, size: Int64, cachedFromLevel: Int) throws -> [Int64] {
        try inclusionNodes(position: position, size: size).filter { $0.level < cachedFromLevel }.map(MerkleProjection.id)
    }

    /// The nodes an inclusion proof and its root are made of.
    static func inclusionNodes(position: Int64, size: Int64) throws -> Set<MerkleTree.Node> {
        try MerkleTree.nodes { source in
            _ = try MerkleTree.inclusionProof(leaf: position - 1, size: size, source)
            _ = try MerkleTree.root(size: size, source)
        }
    }

    /// The hashes of `nodes` for a proof in the tree of `size` events, the tree's size, and
    /// the event at `event` when asked, in one statement (one round trip: a proof is a
    /// handful of index probes); refused when the tree does not reach `size` yet. Nodes
    /// never change once written, so the size and the nodes need no snapshot of their own.
    private func read(size: Int64, _ nodes: Set<MerkleTree.Node>, event position: Int64? = nil)
        throws -> (nodes: MerkleTree.Source, event: LeafEvent?) {
        var found = cache?.lookup(nodes) ?? [:]
        let list = nodes.filter { found[$0] == nil }
        var fetched: [MerkleTree.Node: [UInt8]] = [:]
        var treeSize: Int64 = 0
        var event: LeafEvent?
        do {
            try connections.read { conn in
                for r in try conn.query(Self.proofStatement, [PostgresTextArray(list.map { String(MerkleProjection.id($0)) }), position],
                                        format: .binary).rows {
                    switch try r.requireBinaryInt64(0) {
                    case 0:
                        treeSize = try r.requireBinaryInt64(2)
                    case 1:
                        // Past the end of its block, a node is not made yet: missing, like a node of no row.
                        let hash = try r.requireBinaryBytes(3)
                        if hash.count == 32 { fetched[MerkleProjection.node(id: try r.requireBinaryInt64(2))] = hash }
                    default:
                        event = LeafEvent(type: try r.requireBinaryString(4), stream: try r.requireBinaryString(5),
                                          prevHash: try r.requireBinaryBytes(6), hash: try r.requireBinaryBytes(3),
                                          canonical: try r.requireBinaryBytes(7))
                    }
                }
            }
        } catch let error as PostgresError where error.sqlState == PostgresError.SQLState.undefinedTable {
            throw Refusal.notCreated
        }
        guard size <= treeSize else { throw Refusal.beyondTree(size: size, treeSize: treeSize) }
        cache?.store(fetched)
        found.merge(fetched) { old, _ in old }
        return ({ node in
            guard let hash = found[node] else { throw MerkleTree.ProofError.missingNode(node) }
            return hash
        }, event)
    }

    private static func size(on connection: PostgresConnection) throws -> Int64? {
        guard try connection.query("SELECT to_regclass('proj_merkle._checkpoint') IS NOT NULL")[0].bool(0) == true else { return nil }
        return try connection.query("SELECT position FROM proj_merkle._checkpoint").rows.first?.requireInt64(0)
    }

    private static func check(size: Int64) throws {
        guard size >= 1 else { throw Refusal.invalid("a tree size is at least 1, not \(size)") }
    }
}
