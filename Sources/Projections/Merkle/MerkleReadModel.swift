import LedgerDomain
import Postgres

/// Every read of the Merkle projection (`proj_merkle`): the tree's size, roots, inclusion
/// and consistency proofs, and the signed checkpoints. A proof reads the O(log n) perfect
/// subtrees it is made of in one statement, in the same snapshot as the tree's size.
public struct MerkleReadModel: Sendable {
    public let pool: PostgresPool

    public init(pool: PostgresPool) { self.pool = pool }

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
        try pool.read { conn in try Self.size(on: conn) }
    }

    /// The proof that the event at `position` is in the tree of `size` events (the whole
    /// tree when nil).
    public func inclusionProof(position: Int64, size: Int64? = nil) throws -> InclusionProof {
        try snapshot { tx, treeSize in
            let n = size ?? treeSize
            try Self.check(size: n, treeSize: treeSize)
            guard position >= 1, position <= n else {
                throw Refusal.invalid("position \(position) is not in a tree of \(n) events (positions 1 to \(n))")
            }
            let nodes = try Self.fetch(MerkleTree.nodes { source in
                _ = try MerkleTree.inclusionProof(leaf: position - 1, size: n, source)
                _ = try MerkleTree.root(size: n, source)
            }, on: tx)
            return InclusionProof(position: position, size: n, root: try MerkleTree.root(size: n, nodes),
                                  path: try MerkleTree.inclusionProof(leaf: position - 1, size: n, nodes))
        }
    }

    /// The proof that the tree of `from` events is the beginning of the tree of `to`
    /// (the whole tree when nil).
    public func consistencyProof(from: Int64, to: Int64? = nil) throws -> ConsistencyProof {
        try snapshot { tx, treeSize in
            let n = to ?? treeSize
            try Self.check(size: n, treeSize: treeSize)
            guard from >= 1, from <= n else { throw Refusal.invalid("from is 1 to the later size (\(n)), not \(from)") }
            let nodes = try Self.fetch(MerkleTree.nodes { source in
                _ = try MerkleTree.consistencyProof(from: from, to: n, source)
                _ = try MerkleTree.root(size: from, source)
                _ = try MerkleTree.root(size: n, source)
            }, on: tx)
            return ConsistencyProof(from: from, to: n, fromRoot: try MerkleTree.root(size: from, nodes),
                                    toRoot: try MerkleTree.root(size: n, nodes),
                                    path: try MerkleTree.consistencyProof(from: from, to: n, nodes))
        }
    }

    /// The root of the tree of `size` events.
    public func root(size: Int64) throws -> [UInt8] {
        try snapshot { tx, treeSize in
            try Self.check(size: size, treeSize: treeSize)
            let nodes = try Self.fetch(MerkleTree.nodes { _ = try MerkleTree.root(size: size, $0) }, on: tx)
            return try MerkleTree.root(size: size, nodes)
        }
    }

    /// The latest signed checkpoint; nil when there is none (or no tree yet).
    public func latestCheckpoint() throws -> Checkpoint? {
        try checkpoints("ORDER BY position DESC LIMIT 1", []).first
    }

    /// The checkpoint recorded at `position` of the log.
    public func checkpoint(at position: Int64) throws -> Checkpoint? {
        try checkpoints("WHERE position = $1", [position]).first
    }

    /// Checkpoints in log order, after `position`, at most `limit`.
    public func checkpoints(after position: Int64, limit: Int) throws -> [Checkpoint] {
        try checkpoints("WHERE position > $1 ORDER BY position LIMIT $2", [position, Int64(limit)])
    }

    // MARK: Reading

    private func checkpoints(_ clause: String, _ parameters: [any PostgresBindable]) throws -> [Checkpoint] {
        try pool.read { conn in
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

    private func snapshot<T>(_ body: (PostgresConnection, Int64) throws -> T) throws -> T {
        try pool.read { conn in
            try conn.transaction(isolation: "REPEATABLE READ READ ONLY") { tx in
                guard let size = try Self.size(on: tx) else { throw Refusal.notCreated }
                return try body(tx, size)
            }
        }
    }

    private static func size(on connection: PostgresConnection) throws -> Int64? {
        guard try connection.query("SELECT to_regclass('proj_merkle._checkpoint') IS NOT NULL")[0].bool(0) == true else { return nil }
        return try connection.query("SELECT position FROM proj_merkle._checkpoint").rows.first?.requireInt64(0)
    }

    private static func check(size: Int64, treeSize: Int64) throws {
        guard size >= 1 else { throw Refusal.invalid("a tree size is at least 1, not \(size)") }
        guard size <= treeSize else { throw Refusal.beyondTree(size: size, treeSize: treeSize) }
    }

    /// The hashes of `nodes`, in one statement; a source that throws for any other node.
    private static func fetch(_ nodes: Set<MerkleTree.Node>, on connection: PostgresConnection) throws -> MerkleTree.Source {
        let list = Array(nodes)
        var found: [MerkleTree.Node: [UInt8]] = [:]
        if !list.isEmpty {
            for r in try connection.query("""
                SELECT n.level, n.idx, n.hash FROM unnest($1::smallint[], $2::bigint[]) AS k(level, idx)
                JOIN proj_merkle.nodes n ON n.level = k.level AND n.idx = k.idx
                """, [PostgresTextArray(list.map { String($0.level) }), PostgresTextArray(list.map { String($0.index) })]).rows {
                found[MerkleTree.Node(level: Int(try r.requireInt64(0)), index: try r.requireInt64(1))] = try r.requireBytes(2)
            }
        }
        return { node in
            guard let hash = found[node] else { throw MerkleTree.ProofError.missingNode(node) }
            return hash
        }
    }
}
