import Crypto
import LedgerDomain
import Testing
import TestSupport

/// The Merkle tree of the log (docs/audit.md), against RFC 9162 written out recursively
/// (`ReferenceMerkle`), over generated sizes, leaves and sizes pairs.
@Suite("The log's Merkle tree (RFC 9162)", .bounded)
struct MerkleTreeTests {
    /// Leaves as the log makes them (chain hashes), and every perfect subtree of the tree
    /// of `count` leaves, as the projection stores them.
    static func tree(_ count: Int, seed: UInt64) -> (data: [[UInt8]], nodes: [MerkleTree.Node: [UInt8]]) {
        var random = SeededRandom(seed: seed)
        let data = (0..<count).map { _ in (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) } }
        var nodes: [MerkleTree.Node: [UInt8]] = [:]
        var level = data.map { MerkleTree.leafHash($0) }
        var l = 0
        while !level.isEmpty {
            for (i, h) in level.enumerated() { nodes[MerkleTree.Node(level: l, index: Int64(i))] = h }
            level = stride(from: 0, to: level.count - 1, by: 2).map { MerkleTree.nodeHash(level[$0], level[$0 + 1]) }
            l += 1
        }
        return (data, nodes)
    }

    static func source(_ nodes: [MerkleTree.Node: [UInt8]]) -> MerkleTree.Source {
        { node in
            guard let hash = nodes[node] else { throw MerkleTree.ProofError.missingNode(node) }
            return hash
        }
    }

    @Test("roots, audit paths and consistency proofs equal RFC 9162's for every size to 130 and every leaf and earlier size")
    func everySmallTree() throws {
        let (data, nodes) = Self.tree(130, seed: 15)
        let source = Self.source(nodes)
        for n in 1...130 {
            let d = data.prefix(n)
            let root = try MerkleTree.root(size: Int64(n), source)
            #expect(root == ReferenceMerkle.mth(d), "root of \(n)")
            for m in 0..<n {
                let path = try MerkleTree.inclusionProof(leaf: Int64(m), size: Int64(n), source)
                #expect(path == ReferenceMerkle.path(m, d), "path of \(m) in \(n)")
                #expect(MerkleTree.verifyInclusion(leafHash: MerkleTree.leafHash(data[m]), leaf: Int64(m), size: Int64(n), proof: path, root: root))
            }
            for m in 1...n {
                let proof = try MerkleTree.consistencyProof(from: Int64(m), to: Int64(n), source)
                #expect(proof == (m == n ? [] : ReferenceMerkle.proof(m, d)), "proof \(m) → \(n)")
                #expect(MerkleTree.verifyConsistency(from: Int64(m), to: Int64(n), fromRoot: ReferenceMerkle.mth(data.prefix(m)),
                                                     toRoot: root, proof: proof), "verify \(m) → \(n)")
            }
        }
        #expect(try MerkleTree.root(size: 0, source) == SHA256.hash([UInt8]()))
    }

    @Test("300 generated trees up to 5,000 leaves: proofs read O(log n) stored nodes and verify; a changed byte anywhere fails them")
    func generatedTrees() throws {
        var random = SeededRandom(seed: 9162)
        let (data, nodes) = Self.tree(5_000, seed: 2)
        let source = Self.source(nodes)
        for _ in 0..<300 {
            let n = random.int(2...5_000), m = random.int(1...(n - 1)), leaf = random.int(0...(n - 1))
            let root = try MerkleTree.root(size: Int64(n), source), oldRoot = try MerkleTree.root(size: Int64(m), source)
            #expect(root == ReferenceMerkle.mth(data.prefix(n)))
            let path = try MerkleTree.inclusionProof(leaf: Int64(leaf), size: Int64(n), source)
            let proof = try MerkleTree.consistencyProof(from: Int64(m), to: Int64(n), source)
            // What a reader fetches: O(log n) nodes, never more than four per level.
            let read = try MerkleTree.nodes { s in
                _ = try MerkleTree.inclusionProof(leaf: Int64(leaf), size: Int64(n), s)
                _ = try MerkleTree.consistencyProof(from: Int64(m), to: Int64(n), s)
                _ = try MerkleTree.root(size: Int64(n), s)
            }
            #expect(read.count <= 4 * (64 - n.leadingZeroBitCount) + 2, "\(read.count) nodes for n = \(n)")
            let leafHash = MerkleTree.leafHash(data[leaf])
            #expect(MerkleTree.verifyInclusion(leafHash: leafHash, leaf: Int64(leaf), size: Int64(n), proof: path, root: root))
            #expect(MerkleTree.verifyConsistency(from: Int64(m), to: Int64(n), fromRoot: oldRoot, toRoot: root, proof: proof))
            // Tampering: a flipped bit in any element, the wrong leaf, size or root.
            if !path.isEmpty {
                var bad = path
                let i = random.int(0...(bad.count - 1))
                bad[i][random.int(0...31)] ^= 1 << UInt8(random.int(0...7))
                #expect(!MerkleTree.verifyInclusion(leafHash: leafHash, leaf: Int64(leaf), size: Int64(n), proof: bad, root: root))
                #expect(!MerkleTree.verifyInclusion(leafHash: leafHash, leaf: Int64(leaf), size: Int64(n), proof: path.dropLast().map { $0 }, root: root))
            }
            #expect(!MerkleTree.verifyInclusion(leafHash: MerkleTree.leafHash(data[(leaf + 1) % n]), leaf: Int64(leaf), size: Int64(n), proof: path, root: root))
            if !proof.isEmpty {
                var bad = proof
                bad[random.int(0...(bad.count - 1))][random.int(0...31)] ^= 0x80
                #expect(!MerkleTree.verifyConsistency(from: Int64(m), to: Int64(n), fromRoot: oldRoot, toRoot: root, proof: bad))
            }
            var otherRoot = oldRoot
            otherRoot[0] ^= 1
            #expect(!MerkleTree.verifyConsistency(from: Int64(m), to: Int64(n), fromRoot: otherRoot, toRoot: root, proof: proof))
        }
    }

    @Test("sizes and leaves outside the tree are refused; a missing stored node is named")
    func refusals() throws {
        let (_, nodes) = Self.tree(10, seed: 3)
        let source = Self.source(nodes)
        #expect(throws: MerkleTree.ProofError.self) { try MerkleTree.inclusionProof(leaf: 10, size: 10, source) }
        #expect(throws: MerkleTree.ProofError.self) { try MerkleTree.inclusionProof(leaf: -1, size: 10, source) }
        #expect(throws: MerkleTree.ProofError.self) { try MerkleTree.consistencyProof(from: 11, to: 10, source) }
        #expect(throws: MerkleTree.ProofError.missingNode(.init(level: 0, index: 10))) { try MerkleTree.root(size: 11, source) }
        #expect(!MerkleTree.verifyInclusion(leafHash: [0], leaf: 3, size: 3, proof: [], root: [0]))
        #expect(!MerkleTree.verifyConsistency(from: 0, to: 5, fromRoot: [], toRoot: [], proof: [[1]]))
    }
}
