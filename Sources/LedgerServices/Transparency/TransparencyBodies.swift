import Crypto
import EventStore
import LedgerDomain
import Projections

/// What the log's transparency routes answer and `ledger admin audit` prints. Hashes are lowercase hex, as in the signed
/// text; signatures and canonical bytes base64, as `base64 -d` reads them.
public enum TransparencyBodies {
    public struct CheckpointBody: Encodable, Sendable {
        public var position: Int64
        public var origin: String
        public var size: Int64
        public var root: String
        public var head: String
        public var time: String
        public var keyID: String
        public var publicKeyPEM: String
        public var signature: String
        public var text: String
        enum CodingKeys: String, CodingKey {
            case position, origin, size, root, head, time, signature, text, keyID = "key_id", publicKeyPEM = "public_key_pem"
        }

        public init(_ c: MerkleReadModel.Checkpoint) {
            position = c.position
            origin = c.checkpoint.origin
            size = c.checkpoint.size
            root = Hex.encode(c.checkpoint.root)
            head = Hex.encode(c.checkpoint.head)
            time = c.checkpoint.time.iso8601
            keyID = c.keyID
            publicKeyPEM = Ed25519.publicKeyPEM(c.publicKey)
            signature = StrictBase64.encode(c.signature, .standard)
            text = c.checkpoint.text
        }
    }

    public struct InclusionBody: Encodable, Sendable {
        public struct Event: Encodable, Sendable {
            public var position: Int64
            public var type: String
            public var stream: String
            public var prevHash: String
            public var hash: String
            /// The bytes the chain hash covers after `prev_hash` (docs/audit.md).
            public var canonical: String
            enum CodingKeys: String, CodingKey { case position, type, stream, hash, canonical, prevHash = "prev_hash" }
        }
        public var position: Int64
        public var leafIndex: Int64
        public var treeSize: Int64
        public var root: String
        public var leafHash: String?
        public var path: [String]
        /// Nil when the event is archived (its file holds it).
        public var event: Event?
        enum CodingKeys: String, CodingKey {
            case position, root, path, event, leafIndex = "leaf_index", treeSize = "tree_size", leafHash = "leaf_hash"
        }

        public init(_ proof: MerkleReadModel.InclusionProof) {
            position = proof.position
            leafIndex = proof.position - 1
            treeSize = proof.size
            root = Hex.encode(proof.root)
            path = proof.path.map(Hex.encode)
            leafHash = proof.event.map { Hex.encode(MerkleTree.leafHash($0.hash)) }
            event = proof.event.map {
                Event(position: proof.position, type: $0.type, stream: $0.stream, prevHash: Hex.encode($0.prevHash), hash: Hex.encode($0.hash),
                      canonical: StrictBase64.encode($0.canonical, .standard))
            }
        }
    }

    public struct ConsistencyBody: Encodable, Sendable {
        public var from: Int64
        public var to: Int64
        public var fromRoot: String
        public var toRoot: String
        public var path: [String]
        enum CodingKeys: String, CodingKey { case from, to, path, fromRoot = "from_root", toRoot = "to_root" }

        public init(_ proof: MerkleReadModel.ConsistencyProof) {
            from = proof.from
            to = proof.to
            fromRoot = Hex.encode(proof.fromRoot)
            toRoot = Hex.encode(proof.toRoot)
            path = proof.path.map(Hex.encode)
        }
    }
}
