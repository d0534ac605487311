import Crypto
import EventStore
import LedgerDomain
import Postgres
import ProjectionEngine

/// The Merkle tree over the log (docs/audit.md): every perfect subtree of RFC
/// 9162's tree, as the log grows, and the signed checkpoints the log records. Each event
/// is one leaf (`MerkleTree.leafHash` of its chain hash), so the tree of size n is the
/// first n events, whatever they are; a proof for any size reads O(log n) nodes
/// (`MerkleReadModel`).
///
/// The nodes are stored in `blocks`: a row holds the hashes of 256 consecutive nodes of
/// one level, 32 bytes each in index order (at levels 0, 8, 16, … a block is a C2SP
/// `tlog-tiles` tile's content). A batch appends to the last block of each level it
/// reaches and starts the next ones, so the log's two nodes per event cost a row per 128
/// events, not two rows and two index entries per event.
///
/// The fold reads and writes `frontier`, the last node made at each level, so that it
/// never reads `blocks`.
public struct MerkleProjection: Projection {
    public let name = "merkle"
    public let version = 2
    public let tables = ["blocks", "frontier", "checkpoints"]

    public init() {}

    public var tablesSQL: [String] {
        [
            // The node (level, index) covers leaves index·2^level to (index+1)·2^level − 1; the
            // block (level, k) holds nodes 256·k to 256·k + 255 of its level, and its id is
            // level·2^48 + k (`MerkleProjection.blockID`). Stored out of line uncompressed
            // (hashes do not compress), so that a proof's `substring` reads one chunk of it.
            "CREATE TABLE blocks (id bigint PRIMARY KEY, hashes bytea NOT NULL)",
            "ALTER TABLE blocks ALTER COLUMN hashes SET STORAGE EXTERNAL",
            "CREATE TABLE frontier (level smallint PRIMARY KEY, idx bigint NOT NULL, hash bytea NOT NULL)",
            """
            CREATE TABLE checkpoints (position bigint PRIMARY KEY, size bigint NOT NULL, origin text NOT NULL,
                root bytea NOT NULL, head bytea NOT NULL, time_us bigint NOT NULL, key_id text NOT NULL,
                public_key bytea NOT NULL, signature bytea NOT NULL)
            """,
            "CREATE INDEX checkpoints_size_idx ON checkpoints (size)",
        ]
    }

    /// A node's key: its level in the top 16 bits, its index in the other 48 (a log of
    /// 2^48 events is far beyond any one database).
    public static func id(_ node: MerkleTree.Node) -> Int64 { Int64(node.level) << 48 | node.index }

    static func node(id: Int64) -> MerkleTree.Node { MerkleTree.Node(level: Int(id >> 48), index: id & (1 << 48 - 1)) }

    /// Nodes per block.
    public static let blockWidth: Int64 = 256

    /// The key of the block that holds the node (level, index).
    public static func blockID(level: Int, index: Int64) -> Int64 { Int64(level) << 48 | index / blockWidth }

    public func apply(_ events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
        guard let first = events.first else { return }
        // By level (a tree of 2^48 leaves has 49): an array, as every event reads and writes it.
        var frontier = [(index: Int64, hash: [UInt8])?](repeating: nil, count: 64)
        for row in try context.execute("SELECT level, idx, hash FROM frontier").rows {
            let level = Int(try row.requireInt64(0))
            guard frontier.indices.contains(level) else {
                throw PoisonEvent(position: first.position, underlying: MerkleTree.ProofError.outOfRange("a frontier node at level \(level)"))
            }
            frontier[level] = (try row.requireInt64(1), try row.requireBytes(2))
        }
        // The tree holds positions 1 to first − 1: its last leaf is first − 2.
        guard first.position == 1 || frontier[0]?.index == first.position - 2 else {
            throw PoisonEvent(position: first.position, underlying: MerkleTree.ProofError.outOfRange(
                "the tree's last leaf is \(frontier[0]?.index ?? -1), not the one before position \(first.position)"))
        }
        // The nodes this batch makes at each level: consecutive indexes from `runStart`.
        var runStart = [Int64](repeating: -1, count: frontier.count)
        var runHashes = [[UInt8]](repeating: [], count: frontier.count)
        var checkpoints = RowBuffer(columns: 9)
        var touched: UInt64 = 0   // a bit per level
        var hasher = SHA256Hasher()
        var expected = first.position
        for event in events {
            // Leaf p − 1 is the event at position p: the tree has no holes (the projector
            // hands every event, in order; nothing can be set aside from this fold).
            guard event.position == expected else {
                throw PoisonEvent(position: event.position,
                                  underlying: MerkleTree.ProofError.outOfRange("the tree expected position \(expected), got \(event.position)"))
            }
            expected += 1
            var level = 0
            var index = event.position - 1
            var hash = event.withHash { MerkleTree.leafHash($0, using: &hasher) }
            while true {
                if runStart[level] < 0 {
                    runStart[level] = index
                    // Room for every node the batch makes at this level, at once: grown by
                    // doubling, each level's array was copied and measured
                    // (`malloc_usable_size`) again and again, every batch.
                    runHashes[level].reserveCapacity(32 * ((events.count >> level) + 1))
                }
                runHashes[level].append(contentsOf: hash)
                let left = frontier[level]
                frontier[level] = (index, hash)
                touched |= 1 << UInt64(level)
                // A right child completes its parent with the left one, the last node made
                // at its level.
                guard index & 1 == 1 else { break }
                guard let left, left.index == index - 1 else {
                    throw PoisonEvent(position: event.position, underlying: MerkleTree.ProofError.missingNode(.init(level: level, index: index - 1)))
                }
                hash = MerkleTree.nodeHash(left.hash, hash, using: &hasher)
                level += 1
                index >>= 1
            }
            if event.type == LogCheckpointSigned.type {
                try folding(event) {
                    let e = try event.decode(LogCheckpointSigned.self)
                    guard let checkpoint = e.checkpoint, let key = Hex.decode(e.publicKey), let signature = Hex.decode(e.signature) else {
                        throw MerkleTree.ProofError.outOfRange("a checkpoint with hashes that are not 32 bytes of hex")
                    }
                    checkpoints.append([event.position, checkpoint.size, checkpoint.origin, PostgresBytes(checkpoint.root),
                                        PostgresBytes(checkpoint.head), checkpoint.time.microseconds, e.keyID,
                                        PostgresBytes(key), PostgresBytes(signature)])
                }
            }
        }
        // The new nodes of every block as one `bytea` and where each block's part starts and
        // how long it is: as an array of `bytea`, the server parsed the array's text
        // character by character (`array_in`, most of this projection's server time in a
        // replay); one `bytea` is decoded from hex in one pass.
        var blockIDs: [String] = [], starts: [String] = [], lengths: [String] = []
        var nodes: [UInt8] = []
        nodes.reserveCapacity(runHashes.reduce(0) { $0 + $1.count })
        for level in runStart.indices where runStart[level] >= 0 {
            var index = runStart[level]
            let hashes = runHashes[level]
            var offset = 0
            while offset < hashes.count {
                let count = min(Int(Self.blockWidth - index % Self.blockWidth), (hashes.count - offset) / 32)
                blockIDs.append(String(Self.blockID(level: level, index: index)))
                starts.append(String(nodes.count + 1))
                lengths.append(String(32 * count))
                nodes.append(contentsOf: hashes[offset..<offset + 32 * count])
                index += Int64(count)
                offset += 32 * count
            }
        }
        // A block the batch starts inside was begun by an earlier batch: the new nodes follow
        // its last one (the frontier check above holds the order).
        if !blockIDs.isEmpty {
            context.enqueue("""
                INSERT INTO blocks (id, hashes)
                SELECT b.id, substring($2::bytea FROM b.start FOR b.length)
                FROM unnest($1::bigint[], $3::integer[], $4::integer[]) AS b (id, start, length)
                ON CONFLICT (id) DO UPDATE SET hashes = blocks.hashes || excluded.hashes
                """, [PostgresTextArray(blockIDs), PostgresBytes(nodes), PostgresTextArray(starts), PostgresTextArray(lengths)])
        }
        try context.copy(into: "checkpoints", columns: ["position", "size", "origin", "root", "head", "time_us", "key_id",
                                                        "public_key", "signature"], rows: checkpoints)
        var last = RowBuffer(columns: 3)
        for level in frontier.indices where touched & (1 << UInt64(level)) != 0 {
            guard let node = frontier[level] else { continue }
            last.append([Int64(level), node.index, PostgresBytes(node.hash)])
        }
        context.enqueue("""
            INSERT INTO frontier (level, idx, hash) SELECT * FROM unnest($1::smallint[], $2::bigint[], $3::bytea[])
            ON CONFLICT (level) DO UPDATE SET idx = excluded.idx, hash = excluded.hash
            """, rows: last)
    }
}
