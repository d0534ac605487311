import Crypto
import EventStore
import LedgerDomain
import LedgerJSON
import LedgerServices
import Projections

/// `ledger audit prove`, `ledger audit consistency` and `ledger audit checkpoint`: what
/// the log's transparency routes answer (docs/audit.md), from the command line. `--json`
/// prints the route's body.
struct AuditProveAction: AdminAction {
    static let words = ["prove"]
    static let synopsis = "--position P --size N"
    static let summary = "Prove that the event at position P is in the log's Merkle tree of size N: the audit path, the root and the event."
    static let valued: Set<String> = ["position", "size"]
    static let isOperatorAct = false

    let position: Int64
    let size: Int64

    init(_ options: AdminOptions) throws {
        position = try options.positiveInteger("position")
        size = try options.positiveInteger("size")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let proof = try AuditProofs.proving { try MerkleReadModel(pool: session.pool).inclusionProof(position: position, size: size) }
        let body = TransparencyBodies.InclusionBody(proof)
        var receipt = AdminReceipt(fields: try AuditProofs.fields(body))
        receipt.lines = ["event \(position) (leaf \(position - 1)) is in the tree of \(size) events",
                         "root \(body.root)", "leaf \(body.leafHash ?? "(archived event: recompute it from its file)")"]
            + body.path.enumerated().map { "path[\($0.offset)] \($0.element)" }
        if let e = body.event { receipt.lines += ["event \(e.type) on \(e.stream)", "prev_hash \(e.prevHash)", "hash \(e.hash)"] }
        return receipt
    }
}

struct AuditConsistencyAction: AdminAction {
    static let words = ["consistency"]
    static let synopsis = "--from M --to N"
    static let summary = "Prove that the log's tree of M events is the beginning of its tree of N events: both roots and the proof."
    static let valued: Set<String> = ["from", "to"]
    static let isOperatorAct = false

    let from: Int64
    let to: Int64

    init(_ options: AdminOptions) throws {
        from = try options.positiveInteger("from")
        to = try options.positiveInteger("to")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let proof = try AuditProofs.proving { try MerkleReadModel(pool: session.pool).consistencyProof(from: from, to: to) }
        let body = TransparencyBodies.ConsistencyBody(proof)
        var receipt = AdminReceipt(fields: try AuditProofs.fields(body))
        receipt.lines = ["the tree of \(from) events is the beginning of the tree of \(to)",
                         "from_root \(body.fromRoot)", "to_root \(body.toRoot)"]
            + body.path.enumerated().map { "path[\($0.offset)] \($0.element)" }
        return receipt
    }
}

struct AuditCheckpointAction: AdminAction {
    static let words = ["checkpoint"]
    static let synopsis = "[--position P]"
    static let summary = "Show the latest signed checkpoint (or the one at position P), its signature checked, and its root against the tree."
    static let valued: Set<String> = ["position"]
    static let isOperatorAct = false

    let position: Int64?

    init(_ options: AdminOptions) throws {
        position = options.has("position") ? try options.positiveInteger("position") : nil
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let model = MerkleReadModel(pool: session.pool)
        guard let found = try position.map(model.checkpoint(at:)) ?? model.latestCheckpoint() else {
            throw AdminError(.notFound, position.map { "there is no checkpoint at position \($0)" } ?? "no checkpoint has been signed yet")
        }
        let signed = Ed25519.verify(publicKey: found.publicKey, message: Array(found.checkpoint.text.utf8), signature: found.signature)
        let root = try AuditProofs.proving { try model.root(size: found.checkpoint.size) }
        var receipt = AdminReceipt(fields: try AuditProofs.fields(TransparencyBodies.CheckpointBody(found)))
        receipt.fields["signature_valid"] = .bool(signed)
        receipt.fields["root_matches_tree"] = .bool(root == found.checkpoint.root)
        receipt.lines = found.checkpoint.text.split(separator: "\n").map(String.init) + [
            "position \(found.position), key id \(found.keyID)",
            "signature: \(signed ? "valid" : "INVALID")",
            "root: \(root == found.checkpoint.root ? "the tree's at that size" : "DIFFERS from the tree's at that size")",
        ]
        guard signed, root == found.checkpoint.root else {
            throw AdminError(.checkpointInvalid, "the checkpoint at position \(found.position) does not check: signature \(signed ? "valid" : "invalid"), root \(root == found.checkpoint.root ? "matches" : "differs")")
        }
        return receipt
    }
}

enum AuditProofs {
    static func fields(_ body: some Encodable) throws -> [String: JSONValue] {
        try JSONValueEncoder().encode(body).objectValue ?? [:]
    }

    /// The read model's refusals as the commands report them.
    static func proving<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let refusal as MerkleReadModel.Refusal {
            switch refusal {
            case .notCreated, .beyondTree: throw AdminError(.notFound, refusal.description)
            case .invalid(let what): throw UsageError(what)
            }
        }
    }
}
